// `cupp eval EXPR [NAME=FILE.npy ...] -o OUT.npy [-o OUT2.npy ...]`: evaluates a Python
// expression over .npy files on the GPU and saves the result(s); `cupp eval --batch FILE
// [--jobs N] [--parse-only]` runs one such command per line in one process (one CUDA context for
// all; N worker threads, results printed in input order). Leading `--ops SPEC.yaml` options load
// op specs first (cupp::load_ops), so expressions can call those ops by name. docs/cupp-eval.md is
// the user guide. Exit codes: 0 success; 2 for a cupp error, a malformed expression or bad usage
// (--batch: 2 only when FILE cannot be read or the options are bad; per-line errors are printed,
// not fatal).
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <system_error>
#include <string>
#include <string_view>
#include <vector>

#include "batch.hpp"
#include "commands.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/ufunc.hpp"
#include "evaluator.hpp"
#include "functions.hpp"
#include "parser.hpp"
#include "shell_split.hpp"
#include "syntax_error.hpp"

namespace cupp::tool {

namespace {

constexpr std::string_view kEvalUsage =
    "usage: cupp eval [--ops SPEC.yaml ...] EXPR [NAME=FILE.npy ...] -o OUT.npy [-o OUT2.npy ...]\n"
    "       cupp eval [--ops SPEC.yaml ...] --batch FILE [--jobs N] [--parse-only]\n"
    "              (one `EXPR NAME=FILE ... -o OUT` per line; N worker threads, results in input order;\n"
    "               --parse-only checks each line's syntax and input files without running it)\n"
    "Evaluates a Python expression over .npy files on the GPU, e.g.\n"
    "  cupp eval 'a + 2*b' a=x.npy b=y.npy -o out.npy\n"
    "  cupp eval \"add(a, b, dtype='float32')\" a=x.npy b=y.npy -o out.npy\n"
    "  cupp eval --ops axpb.yaml 'axpb(a, 2.0)' a=x.npy -o out.npy   (ops loaded from a spec file)\n"
    "  cupp eval 'A @ x' A=m.npz x=x.npy -o y.npy   (NAME=FILE.npz: a SciPy sparse matrix; -o - prints the result)\n"
    "See docs/cupp-eval.md and docs/load-ops.md.\n";

// Bad command-line arguments (printed as "UsageError: ..." in --batch output).
class usage_error : public cupp::Error {
 public:
  using cupp::Error::Error;
  const char* class_name() const noexcept override { return "UsageError"; }
};

// A NAME=FILE whose file does not exist (Python's class for it).
class file_not_found : public cupp::Error {
 public:
  using cupp::Error::Error;
  const char* class_name() const noexcept override { return "FileNotFoundError"; }
};

struct request {
  std::string expression;
  std::vector<std::pair<std::string, std::string>> names;  // NAME, FILE
  std::vector<std::string> outputs;
};

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

request parse_request(const std::vector<std::string>& args) {
  if (args.empty()) throw usage_error("missing the expression");
  request r;
  r.expression = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--output") {
      if (i + 1 >= args.size()) throw usage_error(a + " needs a file name");
      r.outputs.push_back(args[++i]);
    } else if (a.starts_with("-o") && a.size() > 2) {
      r.outputs.push_back(a.substr(2));
    } else if (a.starts_with("--output=")) {
      r.outputs.push_back(a.substr(9));
    } else if (a.starts_with("-")) {
      throw usage_error("unknown option '" + a + "'");
    } else {
      const auto eq = a.find('=');
      if (eq == std::string::npos) throw usage_error("expected NAME=FILE.npy or -o OUT.npy, got '" + a + "'");
      std::string name = a.substr(0, eq);
      if (!is_identifier(name)) throw usage_error("'" + name + "' is not a valid name (in '" + a + "')");
      for (const auto& [n, file] : r.names) {
        if (n == name) throw usage_error("name '" + name + "' is bound twice");
      }
      r.names.emplace_back(std::move(name), a.substr(eq + 1));
    }
  }
  if (r.outputs.empty()) throw usage_error("missing -o OUT.npy (where to save the result)");
  return r;
}

// A Python scalar result as the 0-d array numpy.asarray makes of it (bool, int64 or uint64,
// float64, complex128), uploaded directly.
cupp::ndarray scalar_array(const eval::py_scalar& s) {
  using kind = eval::py_scalar::kind;
  const cupp::upload_options blocking{.blocking = true};
  switch (s.k) {
    case kind::bool_: {
      const unsigned char b = s.b ? 1 : 0;
      return cupp::asarray(&b, cupp::bool_, {}, blocking);
    }
    case kind::float_: return cupp::asarray(&s.f, cupp::float64, {}, blocking);
    case kind::complex_: return cupp::asarray(&s.c, cupp::complex128, {}, blocking);
    case kind::int_: break;
  }
  const cupp::weak_scalar w = eval::to_weak(s);  // OverflowError beyond 64 bits
  if (w.is_negative() || w.magnitude() <= static_cast<std::uint64_t>(INT64_MAX)) {
    const auto i = static_cast<std::int64_t>(s.i);
    return cupp::asarray(&i, cupp::int64, {}, blocking);
  }
  const std::uint64_t u = w.magnitude();
  return cupp::asarray(&u, cupp::uint64, {}, blocking);
}

cupp::ndarray as_output(const eval::value& v) {
  if (v.is_array()) return v.array();
  if (v.is_scalar()) return scalar_array(v.scalar());
  throw cupp::TypeError(std::string("the result is a '") + v.type_name() + "', not an array: nothing to save");
}

// One result to its -o: "-" prints its repr on standard output; a module's object (a sparse
// matrix) saves itself (.npz); anything else is saved as .npy.
void write_output(const std::string& path, const eval::value& v) {
  if (path == "-") {
    std::cout << (v.is_object() ? v.object().repr()
                  : v.is_scalar() ? v.scalar().repr()
                                  : as_output(v).repr())
              << '\n';
    return;
  }
  if (v.is_object()) return v.object().save(path);
  cupp::save(path, as_output(v));
}

// Parses, loads, evaluates and saves; throws on any failure (nothing is written then).
void run(const request& r) {
  const eval::node_ptr tree = eval::parse(r.expression);
  static const eval::function_table functions = eval::function_table::builtins();
  eval::bindings names;
  for (const auto& [name, file] : r.names) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw file_not_found("No such file: '" + file + "' (for " + name + ")");
    names.emplace(name, functions.load(file));  // .npy; a loader's suffix (.npz: a sparse matrix)
  }
  const eval::value result = eval::evaluate(*tree, names, functions);
  std::vector<eval::value> outs;
  if (result.is_tuple()) {
    for (const auto& item : result.tuple()) outs.push_back(item);
  } else {
    outs.push_back(result);
  }
  if (outs.size() != r.outputs.size()) {
    throw usage_error("the expression gives " + std::to_string(outs.size()) + " output" +
                      (outs.size() == 1 ? "" : "s") + " but " + std::to_string(r.outputs.size()) + " -o " +
                      (r.outputs.size() == 1 ? "was" : "were") + " given");
  }
  for (std::size_t i = 0; i < outs.size(); ++i) {  // every result savable before anything is written
    const eval::value& v = outs[i];
    if (v.is_object() && r.outputs[i] != "-") v.object().check_save(r.outputs[i]);
    if (!v.is_object() && !v.is_array() && !v.is_scalar()) (void)as_output(v);  // its TypeError
  }
  for (std::size_t i = 0; i < outs.size(); ++i) write_output(r.outputs[i], outs[i]);
}

// --parse-only: every function an expression calls exists (a builtin, a ufunc, or a ufunc method);
// ValueError naming it otherwise, as evaluation would say. Host-only (the op registry). Calls in a
// subscript (a[argsort(b)]) are checked too; the index items themselves only when evaluated.
void check_callees(const eval::node& n) {
  static const eval::function_table functions = eval::function_table::builtins();
  if (n.kind == eval::node_kind::call && !functions.find(n.text)) {
    const auto dot = n.text.find('.');
    if (dot == std::string::npos) {
      (void)eval::function_table::ufunc_callee(n.text);
    } else {
      (void)cupp::ufunc::get(std::string_view(n.text).substr(0, dot));
      if (!eval::function_table::is_ufunc_method(std::string_view(n.text).substr(dot + 1)))
        throw cupp::ValueError("cupp eval has no function '" + n.text + "'");
    }
  }
  for (const auto& a : n.args) check_callees(*a);
  for (const auto& k : n.keywords) check_callees(*k.value);
}

// A batch line: split like a shell command line, then checked (parse_only: its arguments, its
// expression and that its input files exist, no GPU work) or run.
void run_line(const std::string& line, bool parse_only) {
  const std::vector<std::string> args = eval::shell_split(line);
  if (!args.empty() && args[0] == "--batch") throw usage_error("--batch cannot be nested");
  const request r = parse_request(args);
  for (const auto& o : r.outputs) {
    if (o == "-") throw usage_error("-o - (print the result) is not taken in --batch");
  }
  if (!parse_only) return run(r);
  check_callees(*eval::parse(r.expression));
  for (const auto& [name, file] : r.names) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw file_not_found("No such file: '" + file + "' (for " + name + ")");
  }
}

int run_batch(const std::string& path, int jobs, bool parse_only) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) {
      std::cerr << "cupp eval: cannot read batch file '" << path << "'\n";
      return 2;
    }
    in = &file;
  }
  eval::batch_options options{.jobs = jobs};
  if (jobs > 1 && !parse_only) {
    // Worker threads start on CUDA's device 0: each makes the calling thread's current device its
    // own, so every line runs where a sequential batch would. No device: the lines say so.
    int device = -1;
    try {
      device = cuda::current_device();
    } catch (const std::exception&) {
    }
    if (device >= 0) options.thread_init = [device] { cuda::Device(device).use(); };
  }
  const bool ok = eval::run_batch_lines(*in, std::cout, [parse_only](const std::string& line) { run_line(line, parse_only); },
                                        options);
  if (!ok) {
    std::cerr << "cupp eval: error reading batch file '" << path << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace

int eval(std::span<const std::string_view> args) {
  // Leading --ops FILE (or --ops=FILE), repeatable: op specs loaded before anything is evaluated.
  while (!args.empty() && (args[0] == "--ops" || args[0].starts_with("--ops="))) {
    std::string file;
    if (args[0] == "--ops") {
      if (args.size() < 2) {
        std::cerr << "cupp eval: --ops needs a spec file\n\n" << kEvalUsage;
        return 2;
      }
      file = std::string(args[1]);
      args = args.subspan(2);
    } else {
      file = std::string(args[0].substr(6));
      args = args.subspan(1);
    }
    try {
      cupp::load_ops(file);
    } catch (const cupp::Error& e) {
      std::cerr << e.class_name() << ": " << e.what() << '\n';
      return 2;
    }
  }
  if (args.empty()) {
    std::cerr << kEvalUsage;
    return 2;
  }
  if (args[0] == "-h" || args[0] == "--help") {
    std::cout << kEvalUsage;
    return 0;
  }
  if (args[0] == "--batch") {
    constexpr std::string_view batch_usage = "usage: cupp eval --batch FILE [--jobs N] [--parse-only]\n";
    std::string path;
    int jobs = 1;
    bool parse_only = false, have_path = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string_view a = args[i];
      if (a == "--parse-only") {
        parse_only = true;
      } else if (a == "--jobs" || a == "-j" || a.starts_with("--jobs=")) {
        std::string_view n;
        if (a.starts_with("--jobs=")) {
          n = a.substr(7);
        } else if (i + 1 < args.size()) {
          n = args[++i];
        }
        int value = 0;
        const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), value);
        if (n.empty() || ec != std::errc() || end != n.data() + n.size() || value < 1 || value > 1024) {
          std::cerr << "cupp eval: --jobs needs a number of threads from 1 to 1024, got '" << n << "'\n" << batch_usage;
          return 2;
        }
        jobs = value;
      } else if (!have_path && (a == "-" || !a.starts_with("-"))) {
        path = std::string(a);
        have_path = true;
      } else {
        std::cerr << "cupp eval: unexpected argument '" << a << "' after --batch\n" << batch_usage;
        return 2;
      }
    }
    if (!have_path) {
      std::cerr << batch_usage;
      return 2;
    }
    return run_batch(path, jobs, parse_only);
  }
  std::vector<std::string> words(args.begin(), args.end());
  try {
    run(parse_request(words));
    return 0;
  } catch (const eval::syntax_error& e) {
    std::cerr << e.class_name() << ": " << e.what() << '\n' << e.caret(words[0]);
    return 2;
  } catch (const usage_error& e) {
    std::cerr << "cupp eval: " << e.what() << "\n\n" << kEvalUsage;
    return 2;
  } catch (const cupp::Error& e) {
    std::cerr << e.class_name() << ": " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "MemoryError: out of host memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "RuntimeError: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace cupp::tool

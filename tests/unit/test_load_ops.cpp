// cupp::load_ops (ops from YAML at run time), without a GPU: two ops loaded from files (a unary
// one over several dtypes and a binary one with two loops) are registered like built-in ops
// (ufunc::get, find_op, ufunc::all), resolve loops by NEP 50 as built-in ops do, and their
// kernels compile with NVRTC in every layout class; list and multi-document files; idempotent
// reloading, clashes with built-in and loaded names; and every bad spec of tests/codegen/bad_specs/
// is rejected with the line and message codegen gives (tests/codegen/test_validation.py checks
// codegen against the same markers). Every spec of specs/ufuncs/ read by the run-time parser gives
// exactly the generated registry's op (loops, order, bodies, flags), so the two readers agree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/ops.hpp"
#include "cupp/ufunc.hpp"
#include "engine/loop_resolution.hpp"
#include "loader/loaded_ops.hpp"
#include "loader/spec_parser.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"
#include "core/tables.hpp"

namespace cupp {
namespace {

namespace fs = std::filesystem;

// A fresh temporary folder, removed at the end of the test.
class temp_dir {
 public:
  temp_dir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("cupp_load_ops_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    std::ofstream(p) << text;
    return p;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr const char* kCube = R"(# x**3, element-wise (a test op loaded at run time).
name: lotest_cube
doc: Cube of x, element-wise.
nin: 1
nout: 1
aliases: [lotest_cubed]
body: out0 = in0 * in0 * in0;
loops:
  - sig: T -> T
    each: {T: [int32, int64, float32, float64]}
)";

constexpr const char* kAxpb = R"(# 2*x + y with two loops (a test op loaded at run time).
name: lotest_axpb
doc: Twice x plus y.
nin: 2
nout: 1
loops:
  - sig: float32, float32 -> float32
    body: out0 = 2.0f * in0 + in1;
  - sig: float64, float64 -> float64
    body: out0 = 2.0 * in0 + in1;
)";

// Loads the two ops once per process (the registry is process-wide).
const std::vector<ufunc>& two_ops() {
  static const std::vector<ufunc> ops = [] {
    const temp_dir dir;
    std::vector<ufunc> a = load_ops(dir.write("lotest_cube.yaml", kCube));
    std::vector<ufunc> b = load_ops(dir.write("lotest_axpb.yaml", kAxpb));
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }();
  return ops;
}

std::vector<std::string> signatures(const op_spec& op) {
  std::vector<std::string> out;
  for (const loop_spec& l : op.loops) out.push_back(loop_signature(l));
  return out;
}

// The loop index choose_loop picks for arrays of these dtypes (and weak scalars, given as kinds).
std::size_t chosen(const ufunc& f, std::vector<engine::input_type> inputs, std::optional<dtype> out = std::nullopt) {
  return engine::choose_loop(f.spec(), inputs, out, casting::same_kind).index;
}

TEST(LoadOps, RegistersOpsFoundLikeBuiltInOnes) {
  const std::vector<ufunc>& ops = two_ops();
  ASSERT_EQ(ops.size(), 2u);
  const ufunc& cube = ufunc::get("lotest_cube");
  const ufunc& axpb = ufunc::get("lotest_axpb");
  EXPECT_EQ(cube, ops[0]);
  EXPECT_EQ(axpb, ops[1]);
  EXPECT_EQ(ufunc::get("lotest_cubed"), cube) << "aliases are names too";
  EXPECT_EQ(&ufunc::get("lotest_cube"), &cube) << "get() returns one object per op";
  EXPECT_EQ(cube.name(), "lotest_cube");
  EXPECT_EQ(cube.nin(), 1);
  EXPECT_EQ(cube.nout(), 1);
  EXPECT_EQ(axpb.nin(), 2);
  EXPECT_EQ(cube.spec().doc, "Cube of x, element-wise.");
  EXPECT_EQ(find_op("lotest_cube"), &cube.spec());
  EXPECT_EQ(find_op("lotest_cubed"), &cube.spec());
  EXPECT_NE(cube, axpb);
  EXPECT_NE(cube, add);
  EXPECT_EQ(ufunc::get("add"), add) << "built-in lookups are unchanged";

  EXPECT_EQ(signatures(cube.spec()), (std::vector<std::string>{"i->i", "q->q", "f->f", "d->d"}));
  EXPECT_EQ(signatures(axpb.spec()), (std::vector<std::string>{"ff->f", "dd->d"}));
  EXPECT_EQ(cube.spec().loops[2].body, "out0 = in0 * in0 * in0;");
  EXPECT_EQ(axpb.spec().loops[0].body, "out0 = 2.0f * in0 + in1;");
  EXPECT_EQ(axpb.spec().loops[1].body, "out0 = 2.0 * in0 + in1;");

  const std::vector<ufunc> all = ufunc::all();
  EXPECT_EQ(all.size(), builtin_ops().size() + loaded_ops().size());
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end(), [](const ufunc& a, const ufunc& b) { return a.name() < b.name(); }));
  EXPECT_NE(std::find(all.begin(), all.end(), cube), all.end());
  const std::vector<ufunc> loaded = loaded_ops();
  EXPECT_NE(std::find(loaded.begin(), loaded.end(), axpb), loaded.end());
}

TEST(LoadOps, LoopResolutionAsForBuiltInOps) {
  two_ops();
  const ufunc& cube = ufunc::get("lotest_cube");
  const ufunc& axpb = ufunc::get("lotest_axpb");
  auto in = [](type_id t) { return engine::input_type{dtype(t), nullptr}; };
  // The first loop every input casts to safely.
  EXPECT_EQ(chosen(cube, {in(type_id::int8)}), 0u);
  EXPECT_EQ(chosen(cube, {in(type_id::int32)}), 0u);
  EXPECT_EQ(chosen(cube, {in(type_id::uint32)}), 1u);
  EXPECT_EQ(chosen(cube, {in(type_id::int64)}), 1u);
  EXPECT_EQ(chosen(cube, {in(type_id::float16)}), 2u);
  EXPECT_EQ(chosen(cube, {in(type_id::bfloat16)}), 2u);
  EXPECT_EQ(chosen(cube, {in(type_id::uint64)}), 3u);
  EXPECT_EQ(chosen(cube, {in(type_id::bool_)}), 0u);
  try {
    chosen(cube, {in(type_id::complex64)});
    ADD_FAILURE() << "complex64 has no loop";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "ufunc 'lotest_cube' did not contain a loop with signature matching types "
                           "(dtype('complex64'),) -> None");
  }
  EXPECT_EQ(chosen(axpb, {in(type_id::float32), in(type_id::float32)}), 0u);
  EXPECT_EQ(chosen(axpb, {in(type_id::float32), in(type_id::float64)}), 1u);
  EXPECT_EQ(chosen(axpb, {in(type_id::int16), in(type_id::float32)}), 0u);
  EXPECT_EQ(chosen(axpb, {in(type_id::int32), in(type_id::float32)}), 1u);
  // NEP 50: a weak Python float keeps float32; with an integer array it is float64.
  const weak_scalar two(2.0);
  EXPECT_EQ(chosen(axpb, {in(type_id::float32), {dtype(type_id::bool_), &two}}), 0u);
  EXPECT_EQ(chosen(axpb, {in(type_id::int8), {dtype(type_id::bool_), &two}}), 1u);
  // dtype= picks the loop by its output.
  EXPECT_EQ(chosen(axpb, {in(type_id::float32), in(type_id::float32)}, dtype(type_id::float64)), 1u);
  // Casting checks name the loaded op as they name built-in ones.
  try {
    engine::check_input_casting(axpb.spec(), 1, dtype(type_id::float64), dtype(type_id::float32), casting::safe);
    ADD_FAILURE() << "float64 -> float32 is not safe";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "Cannot cast ufunc 'lotest_axpb' input 1 from dtype('float64') to dtype('float32') with casting rule 'safe'");
  }
}

TEST(LoadOps, KernelsCompileWithNvrtcInEveryLayoutClass) {
  for (const ufunc& f : two_ops()) {
    const op_spec& op = f.spec();
    for (auto width : {detail::index_width::i32, detail::index_width::i64}) {
      const detail::composed_program program = detail::compose_elementwise(op, width);
      ASSERT_EQ(program.kernels.size(), op.loops.size());
      for (const loop_spec& loop : op.loops) EXPECT_NE(program.source.find(loop.body), std::string::npos);
      const detail::nvrtc_output out = detail::nvrtc_compile(
          {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
      EXPECT_GT(out.binary.size(), 0u);
      ASSERT_EQ(out.lowered_names.size(), op.loops.size());
      for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty());
    }
    // Strided with a cast, a broadcast operand and where=; contiguous with a value operand.
    std::vector<detail::kernel_desc> descs;
    for (std::size_t i = 0; i < op.loops.size(); ++i) {
      detail::kernel_desc strided;
      strided.loop = i;
      strided.contiguous = false;
      strided.ndim = 2;
      for (std::size_t k = 0; k < op.loops[i].in.size(); ++k)
        strided.inputs.push_back({k == 0 ? detail::operand_access::strided : detail::operand_access::broadcast,
                                  k == 0 ? type_id::int16 : op.loops[i].in[k]});
      strided.outputs.push_back({detail::operand_access::strided, type_id::float64});
      strided.has_where = true;
      strided.where = {detail::operand_access::strided, type_id::bool_};
      descs.push_back(strided);
      detail::kernel_desc contiguous = detail::all_loops_desc(op, i, detail::index_width::i32);
      contiguous.inputs.back() = {detail::operand_access::value, op.loops[i].in.back()};
      descs.push_back(contiguous);
    }
    const detail::composed_program program = detail::compose_elementwise(op, descs);
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    EXPECT_EQ(out.lowered_names.size(), descs.size());
  }
}

TEST(LoadOps, KernelCacheKeyHoldsTheDefinitionsHash) {
  const op_spec& cube = ufunc::get("lotest_cube").spec();
  const op_spec& axpb = ufunc::get("lotest_axpb").spec();
  const std::regex key("loaded:lotest_cube:[0-9a-f]{24}");
  EXPECT_TRUE(std::regex_match(std::string(cube.kernel_name), key)) << cube.kernel_name;
  EXPECT_EQ(detail::cache_name(cube), cube.kernel_name);
  EXPECT_NE(detail::cache_name(cube), detail::cache_name(axpb));
  EXPECT_EQ(detail::cache_name(add.spec()), "add") << "built-in ops keep their names as keys";
  // Another definition under a loaded name never gets a key of its own in this process: it is
  // refused (see below); in another process, its key differs by the hash.
  std::string changed = kCube;
  changed.replace(changed.find("in0 * in0 * in0"), 15, "in0 * in0 * in0 + 0");
  EXPECT_THROW(load_ops_from_string(changed), SpecError);
}

TEST(LoadOps, LoadingAgainIsIdempotentAndChangesAreRefused) {
  const std::vector<ufunc>& ops = two_ops();
  const std::size_t count = loaded_ops().size();
  const temp_dir dir;
  // The same definitions again (another file, even with other comments): the same ufuncs.
  const std::vector<ufunc> again = load_ops(dir.write("lotest_cube.yaml", std::string("# again\n") + kCube));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0], ops[0]);
  EXPECT_EQ(loaded_ops().size(), count);
  // Another body under a loaded name: an error at the name's line, naming where the op came from.
  std::string changed = kAxpb;
  changed.replace(changed.find("2.0f * in0"), 10, "3.0f * in0");
  const fs::path file = dir.write("lotest_axpb.yaml", changed);
  try {
    load_ops(file);
    ADD_FAILURE() << "a changed definition was accepted";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.message().find("op 'lotest_axpb' is already loaded (from "), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("with a different definition"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()), file.string() + ":2: " + e.message());
  }
  EXPECT_EQ(ufunc::get("lotest_axpb").spec().loops[0].body, "out0 = 2.0f * in0 + in1;") << "the first stays";
  EXPECT_EQ(loaded_ops().size(), count);
}

TEST(LoadOps, NamesOfBuiltInOpsAreRefused) {
  try {
    load_ops_from_string("- name: add\n  doc: x\n  nin: 2\n  nout: 1\n  loops:\n    - sig: float32, float32 -> float32\n"
                         "      body: out0 = in0;\n",
                         "clash.yaml");
    ADD_FAILURE() << "add was accepted";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "clash.yaml:1: the name 'add' is already used by the built-in op 'add'");
  }
  try {
    load_ops_from_string("name: lotest_abs2\ndoc: x\nnin: 1\nnout: 1\naliases: [abs]\nloops:\n"
                         "  - sig: float32 -> float32\n    body: out0 = in0;\n",
                         "clash.yaml");
    ADD_FAILURE() << "the alias abs was accepted";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "clash.yaml:5: the name 'abs' is already used by the built-in op 'absolute'");
  }
  EXPECT_EQ(find_op("lotest_abs2"), nullptr) << "nothing of a refused file is registered";
}

TEST(LoadOps, ListsAndMultiDocumentFiles) {
  const temp_dir dir;
  const std::string op_a = "name: lotest_list_a\ndoc: a\nnin: 1\nnout: 1\nloops:\n  - sig: float64 -> float64\n"
                           "    body: out0 = in0 + 1;\n";
  const std::string op_b = "name: lotest_list_b\ndoc: b\nnin: 1\nnout: 2\nloops:\n  - sig: float64 -> float64, float64\n"
                           "    body: out0 = in0; out1 = -in0;\n";
  auto indented = [](const std::string& s) {
    std::string out = "- ";
    for (std::size_t i = 0; i < s.size(); ++i) {
      out += s[i];
      if (s[i] == '\n' && i + 1 < s.size()) out += "  ";
    }
    return out;
  };
  const std::vector<ufunc> listed = load_ops(dir.write("any_name.yaml", indented(op_a) + indented(op_b)));
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].name(), "lotest_list_a");
  EXPECT_EQ(listed[1].nout(), 2);
  const std::vector<ufunc> docs = load_ops(dir.write("more.yaml", "name: lotest_doc_c\ndoc: c\nnin: 1\nnout: 1\nloops:\n"
                                                                  "  - sig: int64 -> int64\n    body: out0 = in0;\n---\n" +
                                                                      std::string("name: lotest_doc_d\ndoc: d\nnin: 1\nnout: 1\n"
                                                                                  "loops:\n  - sig: int64 -> int64\n"
                                                                                  "    body: out0 = in0;\n")));
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1].name(), "lotest_doc_d");
  EXPECT_EQ(ufunc::get("lotest_doc_c"), docs[0]);
  // Errors in a list name the item's line; two ops of one file may not share a name.
  try {
    load_ops(dir.write("dup.yaml", indented("name: lotest_dup\ndoc: a\nnin: 1\nnout: 1\nloops:\n  - sig: int8 -> int8\n"
                                            "    body: out0 = in0;\n") +
                                       indented("name: lotest_dup\ndoc: a\nnin: 1\nnout: 1\nloops:\n  - sig: int8 -> int8\n"
                                                "    body: out0 = in0 + 1;\n")));
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.line(), 8);
    EXPECT_EQ(e.message(), "the name 'lotest_dup' is already used by the op 'lotest_dup' at line 1");
  }
  try {
    load_ops(dir.write("bad_item.yaml", indented(op_a) + "- 42\n"));
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.line(), 8);
    EXPECT_EQ(e.message(), "an op in a list of ops must be a mapping");
  }
  try {
    load_ops(dir.write("empty.yaml", "# nothing\n"));
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.message(), "the top level must be a mapping");
  }
  try {
    load_ops(dir.path() / "no_such_file.yaml");
    ADD_FAILURE();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(std::string(e.what()), (dir.path() / "no_such_file.yaml").string() + ": cannot read the op spec file");
  }
}

TEST(LoadOps, ConcurrentLoadsOfOneFileGiveOneOp) {
  const temp_dir dir;
  const fs::path file = dir.write("lotest_threads.yaml",
                                  "name: lotest_threads\ndoc: t\nnin: 1\nnout: 1\nloops:\n  - sig: T -> T\n"
                                  "    each: {T: float}\n    body: out0 = in0;\n");
  std::vector<std::thread> threads;
  std::vector<const op_spec*> seen(8, nullptr);
  for (std::size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      seen[t] = &load_ops(file).at(0).spec();
      ufunc::get("lotest_threads");
    });
  for (std::thread& t : threads) t.join();
  for (const op_spec* s : seen) EXPECT_EQ(s, seen[0]);
  EXPECT_EQ(seen[0]->loops.size(), 4u) << "float expands to float16, bfloat16, float32, float64";
}

// ---- the bad specs of tests/codegen/bad_specs/, as codegen's test reads them

struct bad_spec {
  std::string file;
  std::string expected;  // after '# expect:'
  int line;              // of '# <-- error'
};

std::vector<bad_spec> bad_specs() {
  std::vector<bad_spec> out;
  const fs::path dir = fs::path(CUPP_SOURCE_DIR) / "tests" / "codegen" / "bad_specs";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string text = read_text(entry.path());
    std::smatch m;
    const bool has_expect = std::regex_search(text, m, std::regex("# expect: (.*)"));
    bad_spec s{entry.path().filename().string(), has_expect ? m[1].str() : "", 0};
    while (!s.expected.empty() && std::isspace(static_cast<unsigned char>(s.expected.back()))) s.expected.pop_back();
    const std::size_t marker = text.find("# <-- error");
    s.line = marker == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + marker, '\n'));
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const bad_spec& a, const bad_spec& b) { return a.file < b.file; });
  return out;
}

TEST(LoadOps, EveryBadSpecOfCodegenIsRejectedWithTheSameLineAndMessage) {
  const std::vector<bad_spec> specs = bad_specs();
  ASSERT_GE(specs.size(), 10u);
  const temp_dir dir;
  const std::size_t count = loaded_ops().size();
  for (const bad_spec& s : specs) {
    SCOPED_TRACE(s.file);
    ASSERT_FALSE(s.expected.empty()) << "no '# expect:' line";
    ASSERT_GT(s.line, 0) << "no '# <-- error' marker";
    // Under its own name, as codegen reads it from specs/ufuncs/.
    const fs::path file = dir.path() / s.file;
    fs::copy_file(fs::path(CUPP_SOURCE_DIR) / "tests" / "codegen" / "bad_specs" / s.file, file);
    try {
      load_ops(file);
      ADD_FAILURE() << "accepted";
    } catch (const SpecError& e) {
      EXPECT_EQ(e.file(), file.string());
      EXPECT_EQ(e.line(), s.line) << e.what();
      EXPECT_NE(e.message().find(s.expected), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()), file.string() + ":" + std::to_string(s.line) + ": " + e.message());
    }
  }
  EXPECT_EQ(loaded_ops().size(), count) << "nothing of a bad file is registered";
}

// ---- the run-time reader and codegen agree on every real spec

TEST(LoadOps, EverySpecOfSpecsUfuncsParsesToTheGeneratedOp) {
  std::size_t compared = 0;
  for (const op_spec& op : builtin_ops()) {
    const fs::path file = fs::path(CUPP_SOURCE_DIR) / "specs" / "ufuncs" / (std::string(op.name) + ".yaml");
    if (!fs::exists(file)) continue;
    SCOPED_TRACE(file.string());
    std::vector<detail::parsed_op> parsed;
    ASSERT_NO_THROW(parsed = detail::parse_op_spec_file(file));
    ASSERT_EQ(parsed.size(), 1u);
    const detail::parsed_op& p = parsed[0];
    EXPECT_EQ(p.name, op.name);
    EXPECT_EQ(p.doc, op.doc);
    EXPECT_EQ(p.nin, op.nin);
    EXPECT_EQ(p.nout, op.nout);
    EXPECT_EQ(p.identity.value_or(""), op.identity);
    EXPECT_EQ(p.commutative, op.commutative);
    EXPECT_EQ(p.aliases, std::vector<std::string>(op.aliases.begin(), op.aliases.end()));
    EXPECT_EQ(p.int_inputs_as, op.int_inputs_as);
    EXPECT_EQ(p.bool_inputs_error, op.bool_inputs_error);
    EXPECT_EQ(p.raises, op.raises);
    EXPECT_EQ(p.weak_scalars_by_truth, op.weak_scalars_by_truth);
    ASSERT_EQ(p.python_int_out_of_range.has_value(), op.python_int_out_of_range.has_value());
    if (op.python_int_out_of_range) {
      EXPECT_EQ(p.python_int_out_of_range->first, op.python_int_out_of_range->when_less);
      EXPECT_EQ(p.python_int_out_of_range->second, op.python_int_out_of_range->when_greater);
    }
    ASSERT_EQ(p.ulp.size(), op.ulp.size());
    for (std::size_t i = 0; i < p.ulp.size(); ++i) {
      EXPECT_EQ(p.ulp[i].first, op.ulp[i].type);
      EXPECT_EQ(p.ulp[i].second, op.ulp[i].ulps);
    }
    ASSERT_EQ(p.loops.size(), op.loops.size()) << "loop expansion differs";
    for (std::size_t i = 0; i < p.loops.size(); ++i) {
      EXPECT_TRUE(std::equal(p.loops[i].in.begin(), p.loops[i].in.end(), op.loops[i].in.begin(), op.loops[i].in.end()))
          << "loop " << i;
      EXPECT_TRUE(
          std::equal(p.loops[i].out.begin(), p.loops[i].out.end(), op.loops[i].out.begin(), op.loops[i].out.end()))
          << "loop " << i;
      EXPECT_EQ(p.loops[i].body, op.loops[i].body) << "loop " << i;
      EXPECT_EQ(p.loops[i].raises, op.loops[i].raises) << "loop " << i << ": codegen's body_raises decided otherwise";
    }
    ++compared;
  }
  EXPECT_GE(compared, 50u);
}

// `raises` is per loop, by the one rule (a body that names raise_error), and the comparison
// promoter reaches the registered op_spec.
TEST(LoadOps, RaisingLoopsAndTheComparisonPromoterReachTheOpSpec) {
  EXPECT_TRUE(detail::body_raises("if (in0 < 0) cupp::dev::raise_error(); out0 = in0;"));
  EXPECT_TRUE(detail::body_raises("out0 = in0; // raise_error"));
  EXPECT_TRUE(detail::body_raises("if (in0) raise_error(); out0 = in0;"));
  EXPECT_FALSE(detail::body_raises("out0 = my_raise_error(in0);"));
  EXPECT_FALSE(detail::body_raises("out0 = raise_errors(in0);"));
  EXPECT_FALSE(detail::body_raises("out0 = cupp::dev::power_integer(in0, in1);"));
  const std::vector<ufunc> ops = load_ops_from_string(R"(
name: lotest_checked_cmp
doc: Less-than that refuses negative int8 input (test only).
nin: 2
nout: 1
raises: {type: ValueError, message: negative}
python_int_out_of_range: {when_less: true, when_greater: false}
body: out0 = in0 < in1;
loops:
  - sig: int8, int8 -> bool
    body: if (in0 < 0) cupp::dev::raise_error(); out0 = in0 < in1;
  - sig: int16, int16 -> bool
  - sig: float32, float32 -> bool
)",
                                                      "checked_cmp.yaml");
  const op_spec& op = ops.at(0).spec();
  ASSERT_EQ(op.loops.size(), 3u);
  EXPECT_TRUE(op.loops[0].raises);
  EXPECT_FALSE(op.loops[1].raises);
  EXPECT_FALSE(op.loops[2].raises);
  ASSERT_TRUE(op.python_int_out_of_range);
  EXPECT_TRUE(op.python_int_out_of_range->when_less);
  EXPECT_FALSE(op.python_int_out_of_range->when_greater);
  const weak_scalar big(1000);
  EXPECT_EQ(engine::out_of_range_comparison(op, op.loops[0], nullptr, &big), std::optional<bool>(true));
  EXPECT_EQ(engine::out_of_range_comparison(op, op.loops[0], &big, nullptr), std::optional<bool>(false));
  EXPECT_EQ(engine::out_of_range_comparison(op, op.loops[1], nullptr, &big), std::nullopt) << "fits int16";
}

// YAML scalars are typed as PyYAML types them, so values codegen refuses are refused here too.
TEST(LoadOps, ScalarsAreTypedAsPyYamlTypesThem) {
  auto error = [](const std::string& text) {
    try {
      load_ops_from_string(text, "s.yaml");
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  const std::string tail = "doc: d\nnout: 1\nloops:\n  - sig: float32 -> float32\n    body: out0 = in0;\n";
  EXPECT_EQ(error("name: lotest_s1\nnin: '1'\n" + tail), "s.yaml:2: nin must be 1, 2 or 3");
  EXPECT_EQ(error("name: lotest_s1\nnin: 1.0\n" + tail), "s.yaml:2: nin must be 1, 2 or 3");
  EXPECT_EQ(error("name: yes\nnin: 1\n" + tail), "s.yaml:1: op name 'True' is not a lower-case identifier");
  EXPECT_EQ(error("name: lotest_s1\nnin: 1\nweak_scalars_by_truth: 'true'\n" + tail),
            "s.yaml:3: weak_scalars_by_truth must be true or false");
  EXPECT_EQ(error("name: lotest_s1\nnin: 1\nnin: 1\n" + tail), "s.yaml:3: duplicate key 'nin'");
  EXPECT_EQ(error("name: lotest_s1\nnin: 1\nulp: {float32: -1}\n" + tail), "s.yaml:3: ulp bounds must be non-negative integers");
  EXPECT_EQ(error("name: lotest_s1\nnin: 1\naliases: abs1\n" + tail), "s.yaml:3: 'aliases' must be a list");
  // Accepted: 0x1 is an int in YAML 1.1, identity 0 prints as Python's str() of it.
  const std::vector<ufunc> ok = load_ops_from_string("name: lotest_s2\nnin: 0x1\nidentity: 0o0\ncommutative: yes\n" + tail);
  EXPECT_EQ(ok.at(0).nin(), 1);
  EXPECT_EQ(ok.at(0).spec().identity, "0o0") << "0o0 is a string in YAML 1.1, as in PyYAML";
  EXPECT_TRUE(ok.at(0).spec().commutative);
  // Python's str() of each YAML 1.1 value (what codegen writes into the registry's identity).
  const std::pair<const char*, const char*> identities[] = {
      {"1.5e+20", "1.5e+20"}, {".5", "0.5"}, {"1_000.0", "1000.0"}, {"-.inf", "-inf"}, {"0x1F", "31"},
      {"1:30", "90"}, {"0b101", "5"}, {"017", "15"}, {"1.0e-05", "1e-05"},
      {"123456789012345678.0", "1.2345678901234568e+17"}, {"0.0001", "0.0001"}, {"0.00001", "1e-05"},
      {"1e5", "1e5"}, {"+12", "12"}, {"-0", "0"}, {"1.0e+16", "1e+16"}, {"9.999e+15", "9999000000000000.0"},
      {"1.0", "1.0"}, {"3.14159265358979311", "3.141592653589793"}, {"'1.0'", "1.0"}, {"~", ""}, {"yes", "True"}};
  for (const auto& [yaml, python] : identities) {
    const auto parsed = detail::parse_op_specs(std::string("name: x\nidentity: ") + yaml + "\nnin: 1\n" + tail, "i.yaml", {});
    EXPECT_EQ(parsed.at(0).identity.value_or(""), python) << yaml;
  }
}

}  // namespace
}  // namespace cupp

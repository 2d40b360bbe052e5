// The compiler front without a GPU: disk cache key, payload format and compile-through-cache.
#include "compiler/compiler.hpp"
#include "compiler/nvcc_backend.hpp"

#include <cstring>

#include "cupp/config.hpp"
#include "compiler/embedded_headers.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::detail {

namespace {

// What every key shares in this process: format, cupp's version, NVRTC's version and the
// embedded headers (their digest from the build: hashing them here cost a warm start ~0.4 ms).
const std::string& process_key_part() {
  static const std::string part = [] {
    sha256 h;
    h.field("cupp kernel cache key 1").field(CUPP_VERSION_STRING).field(nvrtc_version_string());
    h.field(embedded_headers_digest());
    const digest256 d = h.finish();
    return std::string(reinterpret_cast<const char*>(d.data()), d.size());
  }();
  return part;
}

nvrtc_request to_request(const program_source& program, const compile_flags& flags) {
  nvrtc_request r;
  r.program_name = program.name;
  r.source = program.source;
  r.name_expressions = program.name_expressions;
  r.arch = flags.arch;
  r.ptx = flags.ptx;
  r.extra_options = flags.extra_options;
  r.extra_options.insert(r.extra_options.end(), program.options.begin(), program.options.end());
  r.debug = flags.debug;
  r.dump_source_on_error = flags.dump_source_on_error;
  r.extra_headers = program.headers;
  return r;
}

void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
void put_text(std::string& out, std::string_view text) {
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
}

// Reads from a payload; every read checks the remaining length.
struct reader {
  std::string_view rest;
  bool ok = true;
  std::uint32_t u32() {
    std::uint32_t v = 0;
    if (rest.size() < sizeof v) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, rest.data(), sizeof v);
    rest.remove_prefix(sizeof v);
    return v;
  }
  std::string text() {
    const std::uint32_t n = u32();
    if (!ok || rest.size() < n) {
      ok = false;
      return {};
    }
    std::string out(rest.substr(0, n));
    rest.remove_prefix(n);
    return out;
  }
};

}  // namespace

compile_flags compile_flags_from_config(int arch) {
  const config::settings& s = config::get();
  compile_flags f;
  f.arch = arch;
  f.ptx = s.compile_with_ptx;
  f.debug = s.cuda_compile_with_debug;
  f.dump_source_on_error = s.dump_cuda_source_on_error;
  return f;
}

digest256 program_key(const program_source& program, const compile_flags& flags) {
  sha256 h;
  h.field(process_key_part());
  h.field(flags.ptx && !program.use_nvcc ? "ptx" : "cubin").field(std::to_string(flags.arch));
  if (program.use_nvcc) {
    h.field("nvcc").field(nvcc_command()).field(nvcc_version_text()).field(flags.debug ? "debug" : "");
    for (const std::string& option : program.options) h.field(option);
  } else {
    for (const std::string& option : nvrtc_options(to_request(program, flags))) h.field(option);
  }
  h.field("names");
  for (const std::string& expr : program.name_expressions) h.field(expr);
  h.field(program.name).field(program.source);
  if (!program.headers.empty()) h.field("module headers").field(program.headers_digest);
  return h.finish();
}

namespace {

nvrtc_request ltoir_request(const lto_piece& piece, int arch) {
  nvrtc_request r;
  r.program_name = piece.name;
  r.source = piece.source;
  r.arch = arch;
  r.lto = true;
  r.extra_options = piece.options;
  return r;
}

}  // namespace

digest256 ltoir_key(const lto_piece& piece, int arch) {
  sha256 h;
  h.field(process_key_part()).field("ltoir").field(std::to_string(arch));
  for (const std::string& option : nvrtc_options(ltoir_request(piece, arch))) h.field(option);
  h.field(piece.name).field(piece.source);
  return h.finish();
}

ltoir_result compile_ltoir(const lto_piece& piece, int arch, const disk_cache* disk, bool write) {
  ltoir_result result;
  digest256 key{};
  if (disk) {
    key = ltoir_key(piece, arch);
    if (std::optional<std::string> payload = disk->load(key); payload && !payload->empty()) {
      result.ltoir = std::move(*payload);
      result.from_disk = true;
      return result;
    }
  }
  result.ltoir = nvrtc_compile(ltoir_request(piece, arch)).binary;
  if (disk && write) result.store_error = disk->store(key, result.ltoir, piece.source);
  return result;
}

std::string serialize(const compiled_program& program) {
  std::string out;
  out.reserve(program.binary.size() + 64);
  put_u32(out, program.ptx ? 1 : 0);
  put_u32(out, static_cast<std::uint32_t>(program.lowered_names.size()));
  for (const std::string& name : program.lowered_names) put_text(out, name);
  put_text(out, program.binary);
  return out;
}

std::optional<compiled_program> deserialize(std::string_view payload, std::size_t expected_kernels) {
  reader in{payload};
  compiled_program out;
  const std::uint32_t kind = in.u32();
  const std::uint32_t count = in.u32();
  if (!in.ok || kind > 1 || count != expected_kernels) return std::nullopt;
  out.ptx = kind == 1;
  for (std::uint32_t i = 0; i < count && in.ok; ++i) out.lowered_names.push_back(in.text());
  out.binary = in.text();
  if (!in.ok || !in.rest.empty() || out.binary.empty()) return std::nullopt;
  return out;
}

compile_result compile_program(const program_source& program, const compile_flags& flags, const disk_cache* disk,
                               bool write) {
  compile_result result;
  digest256 key{};
  if (disk) {
    key = program_key(program, flags);
    if (std::optional<std::string> payload = disk->load(key)) {
      if (std::optional<compiled_program> cached = deserialize(*payload, program.name_expressions.size());
          cached && cached->ptx == (flags.ptx && !program.use_nvcc)) {
        result.program = std::move(*cached);
        result.from_disk = true;
        return result;
      }
    }
  }
  if (program.use_nvcc) {
    result.program.ptx = false;
    result.program.binary = nvcc_compile(program.name, program.source, flags.arch, program.options, flags.debug);
    if (disk && write) result.store_error = disk->store(key, serialize(result.program), program.source);
    return result;
  }
  nvrtc_output out = nvrtc_compile(to_request(program, flags));
  result.program.ptx = flags.ptx;
  result.program.binary = std::move(out.binary);
  result.program.lowered_names = std::move(out.lowered_names);
  if (flags.ptx && (result.program.binary.empty() || result.program.binary.back() != '\0'))
    result.program.binary.push_back('\0');  // the loader reads PTX as a C string
  if (disk && write) result.store_error = disk->store(key, serialize(result.program), program.source);
  return result;
}

}  // namespace cupp::detail

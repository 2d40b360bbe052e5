// cupp's side of the benchmark (cupp_bench; bench/compare.py runs it next to CuPy and PyTorch).
// Every case of the table (generated/bench/cases.json: bench/cases.json and the modules' tables)
// runs through the C++ that codegen translated from its NumPy expression
// (generated/bench/bench_calls.cpp): bound once, then timed with CUDA events after warm-up, back
// to back on one stream (median and minimum of the per-call times), or as host time per call next
// to an empty launch; outputs are poisoned with NaN bytes first. Element-wise results are checked
// on a sample against a host reference computed in double; with --samples DIR every result's
// values at the positions of side_common.sample_positions are written to DIR/<case>.npy (float64
// or complex128) for compare.py to check against CuPy's. A case without a binding (built from
// another table) prints a line with "missing". In the same run: the copy floors (cudaMemcpyAsync
// device-to-device and a float4 copy kernel, 1 GiB) and the host time of an empty kernel launch
// through cupp::cuda::RawKernel.
// CUPP_BENCH_BREAK=NAME[,NAME] corrupts the last element of those cases' results after cupp's own
// check and before the sample is written (bench/test_compare.sh: compare.py must catch it).
// Prints one JSON object per line on stdout (schema in bench/compare.py); progress on stderr.
#include <cuda_runtime.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "bench_calls.hpp"
#include "cupp/creation.hpp"
#include "cupp/float16.hpp"
#include "cupp/ndarray.hpp"

#ifndef CUPP_BENCH_CASES
#define CUPP_BENCH_CASES "cases.json"
#endif

namespace {

namespace cc = cupp::cuda;
using i64 = std::int64_t;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorName(err) + " (" +
                             cudaGetErrorString(err) + ")");
}

// ---- the table of cases

struct settings {
  int warmup = 5, reps = 30, check_samples = 4096;
  i64 copy_floor_bytes = i64{1} << 30;
  int floor_reps = 30;
  int host_warmup = 3000, host_batches = 60, host_batch = 500;
};

struct input_spec {
  cupp::dtype type;
  cupp::shape_t shape;
  bool transpose = false;
};

struct case_spec {
  std::string name, kind = "elementwise", op, metric, note;
  std::string expr, setup;  // the NumPy expression; its setup lines joined by newlines
  double target = 0;
  bool check = true;        // false: the result's values are undefined (empty), not checked
  std::vector<input_spec> inputs;
  cupp::dtype out_type;
  bool out_given = true;
};

struct case_table {
  settings config;
  std::vector<case_spec> cases;
};

case_table load_cases(const std::string& path) {
  const YAML::Node root = YAML::LoadFile(path);
  case_table table;
  if (const YAML::Node s = root["settings"]) {
    auto get = [&](const char* key, auto& field) {
      if (s[key]) field = s[key].as<std::remove_reference_t<decltype(field)>>();
    };
    get("warmup", table.config.warmup);
    get("reps", table.config.reps);
    get("check_samples", table.config.check_samples);
    get("copy_floor_bytes", table.config.copy_floor_bytes);
    get("floor_reps", table.config.floor_reps);
    get("host_warmup", table.config.host_warmup);
    get("host_batches", table.config.host_batches);
    get("host_batch", table.config.host_batch);
  }
  for (const YAML::Node& c : root["cases"]) {
    case_spec spec;
    spec.name = c["name"].as<std::string>();
    if (c["kind"]) spec.kind = c["kind"].as<std::string>();
    spec.op = c["op"].as<std::string>();
    spec.metric = c["metric"].as<std::string>();
    if (c["target"] && !c["target"].IsNull()) spec.target = c["target"].as<double>();
    if (c["note"]) spec.note = c["note"].as<std::string>();
    if (c["expr"]) spec.expr = c["expr"].as<std::string>();
    for (const YAML::Node& line : c["setup"]) spec.setup += (spec.setup.empty() ? "" : "\n") + line.as<std::string>();
    if (c["check"]) spec.check = c["check"].as<bool>();
    if (spec.kind == "jit") {  // compare.py runs these (fresh processes of cupp_bench_compile)
      table.cases.push_back(std::move(spec));
      continue;
    }
    for (const YAML::Node& in : c["inputs"]) {
      input_spec input;
      input.type = cupp::dtype::parse(in["dtype"].as<std::string>());
      input.shape = in["shape"].as<std::vector<i64>>();
      input.transpose = in["view"] && in["view"].as<std::string>() == "T";
      if (input.transpose) std::reverse(input.shape.begin(), input.shape.end());  // the view's shape
      spec.inputs.push_back(std::move(input));
    }
    spec.out_type = cupp::dtype::parse(c["out"]["dtype"].as<std::string>());
    spec.out_given = c["out"]["given"].as<bool>();
    table.cases.push_back(std::move(spec));
  }
  return table;
}

// ---- JSON lines

std::string quoted(std::string_view text) {
  std::string s = "\"";
  for (const char ch : text) {
    if (ch == '"' || ch == '\\') {
      s += '\\';
      s += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      s += buf;
    } else {
      s += ch;
    }
  }
  return s + "\"";
}

class json_line {
 public:
  json_line& str(std::string_view key, std::string_view value) { return raw(key, quoted(value)); }
  json_line& num(std::string_view key, double value) {
    if (!std::isfinite(value)) return raw(key, "null");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return raw(key, buf);
  }
  json_line& integer(std::string_view key, i64 value) { return raw(key, std::to_string(value)); }
  void print() const {
    std::printf("%s}\n", text_.c_str());
    std::fflush(stdout);
  }

 private:
  json_line& raw(std::string_view key, std::string_view value) {
    text_ += text_.size() > 1 ? ", " : "";
    text_ += quoted(key);
    text_ += ": ";
    text_ += value;
    return *this;
  }
  std::string text_ = "{";
};

// ---- helper kernels (cupp's own launch path)

// The input data: side_common.FILL_SOURCE is this text (bench/test_compare_logic.py checks), so
// CuPy's side fills the same values and compare.py can check cupp's results against CuPy's.
constexpr const char* fill_source = R"(
typedef unsigned long long u64;
__device__ __forceinline__ unsigned hash32(u64 i, unsigned seed) {
  unsigned x = (unsigned)i * 0x9E3779B1u ^ (unsigned)(i >> 32) * 0x85EBCA77u ^ seed;
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
// n elements of one kind: 0 signed integer, 1 unsigned integer, 2 bool, 3 float16, 4 bfloat16,
// 5 float32, 6 float64 (complex arrays are filled as 2n elements of their component).
extern "C" __global__ void fill(char* p, u64 n, int kind, int size, unsigned seed) {
  const u64 step = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    const unsigned h = hash32(i, seed);
    const float f = -4.0f + 8.0f * ((h >> 8) * (1.0f / 16777216.0f));
    if (kind <= 1) {
      const long long range = size == 1 ? 200 : size == 2 ? 20000 : (1LL << 21);
      const long long v = (long long)(h % range) - (kind == 0 ? range / 2 : 0);
      if (size == 1) ((signed char*)p)[i] = (signed char)v;
      else if (size == 2) ((short*)p)[i] = (short)v;
      else if (size == 4) ((int*)p)[i] = (int)v;
      else ((long long*)p)[i] = v;
    } else if (kind == 2) {
      p[i] = (char)(h & 1);
    } else if (kind == 3) {
      unsigned short b;
      asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
      ((unsigned short*)p)[i] = b;
    } else if (kind == 4) {
      unsigned short b;
      asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f));
      ((unsigned short*)p)[i] = b;
    } else if (kind == 5) {
      ((float*)p)[i] = f;
    } else {
      ((double*)p)[i] = -4.0 + 8.0 * (h * (1.0 / 4294967296.0));
    }
  }
}
)";

constexpr const char* other_helpers_source = R"(extern "C" __global__ void empty() {}
extern "C" __global__ void copy_float4(const float4* __restrict__ in, float4* __restrict__ out, u64 n) {
  const u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
// Copies one element of itemsize bytes from base + offsets[i] to out[i].
extern "C" __global__ void gather(const char* base, const long long* offsets, char* out, int itemsize, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const char* s = base + offsets[i];
  char* d = out + (long long)i * itemsize;
  for (int b = 0; b < itemsize; ++b) d[b] = s[b];
}
)";

const std::string helper_source = std::string(fill_source) + other_helpers_source;

struct helpers {
  cc::RawModule module{helper_source};
  cc::RawKernel empty = module.get_function("empty");
  cc::RawKernel copy_float4 = module.get_function("copy_float4");
  cc::RawKernel fill = module.get_function("fill");
  cc::RawKernel gather = module.get_function("gather");
};

// Fills every element of the contiguous array `a` with hashed values of its dtype.
void fill_random(const helpers& k, const cupp::ndarray& a, unsigned seed) {
  const cupp::dtype t = a.dtype();
  std::uint64_t n = static_cast<std::uint64_t>(a.size());
  int kind = 0, size = static_cast<int>(t.itemsize());
  switch (t.id()) {
    case cupp::type_id::bool_: kind = 2; break;
    case cupp::type_id::float16: kind = 3; break;
    case cupp::type_id::bfloat16: kind = 4; break;
    case cupp::type_id::float32: kind = 5; break;
    case cupp::type_id::float64: kind = 6; break;
    case cupp::type_id::complex64: kind = 5, n *= 2, size = 4; break;
    case cupp::type_id::complex128: kind = 6, n *= 2, size = 8; break;
    default: kind = t.kind() == 'u' ? 1 : 0; break;
  }
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 1u << 20));
  k.fill({std::max(blocks, 1u)}, {256}, a.data(), n, kind, size, seed);
  check(cudaGetLastError(), "fill launch");
}

// ---- device buffers and events outside cupp (for the floors and the sample gathers)

class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) : bytes_(bytes) { check(cudaMalloc(&ptr_, bytes), "cudaMalloc"); }
  ~device_buffer() { cudaFree(ptr_); }  // a destructor cannot throw; the error would resurface later
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  void* get() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

class event_list {
 public:
  explicit event_list(std::size_t n) : events_(n) {
    for (cudaEvent_t& e : events_) check(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~event_list() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  event_list(const event_list&) = delete;
  event_list& operator=(const event_list&) = delete;
  void record(std::size_t i, cudaStream_t s) { check(cudaEventRecord(events_[i], s), "cudaEventRecord"); }
  float elapsed_ms(std::size_t i) const {  // between events i and i+1
    float ms = 0;
    check(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]), "cudaEventElapsedTime");
    return ms;
  }

 private:
  std::vector<cudaEvent_t> events_;
};

struct timing {
  double median_ms = 0, min_ms = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// `call` after `warmup` calls, then `reps` calls back to back with an event between each two:
// the calls before the first event keep the GPU busy, so each interval is one call's GPU time.
timing time_device(const std::function<void()>& call, int warmup, int reps, cudaStream_t s) {
  for (int i = 0; i < warmup; ++i) call();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (warm-up)");
  call();  // in flight while the first event is recorded
  event_list events(static_cast<std::size_t>(reps) + 1);
  events.record(0, s);
  for (int i = 0; i < reps; ++i) {
    call();
    events.record(static_cast<std::size_t>(i) + 1, s);
  }
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (timed)");
  check(cudaGetLastError(), "timed calls");
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) ms.push_back(events.elapsed_ms(static_cast<std::size_t>(i)));
  return {median(ms), *std::min_element(ms.begin(), ms.end())};
}

// Median host microseconds per call over batches of calls (the stream drained between batches).
double time_host_us(const std::function<void()>& call, const settings& cfg, cudaStream_t s) {
  for (int i = 0; i < cfg.host_warmup; ++i) call();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (host warm-up)");
  std::vector<double> per_call;
  for (int b = 0; b < cfg.host_batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < cfg.host_batch; ++i) call();
    const auto stop = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / cfg.host_batch);
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (host batch)");
  }
  check(cudaGetLastError(), "host-timed calls");
  return median(per_call);
}

// A host-timed case next to the launch floor measured at the same time: batches of the case and
// of an empty launch alternate, so that the machine's drift (clocks, other load) falls on both.
// Returns {case us, floor us} per call, medians.
struct host_pair {
  double us = 0, floor_us = 0;
};
host_pair time_host_against_floor(const std::function<void()>& call, const std::function<void()>& empty,
                                  const settings& cfg, cudaStream_t s) {
  for (int i = 0; i < cfg.host_warmup; ++i) {
    call();
    empty();
  }
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (host warm-up)");
  std::vector<double> per_call, per_floor;
  auto batch = [&](const std::function<void()>& f, std::vector<double>& into) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < cfg.host_batch; ++i) f();
    const auto stop = std::chrono::steady_clock::now();
    into.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / cfg.host_batch);
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (host batch)");
  };
  for (int b = 0; b < cfg.host_batches; ++b) {
    batch(call, per_call);
    batch(empty, per_floor);
  }
  check(cudaGetLastError(), "host-timed calls");
  return {median(per_call), median(per_floor)};
}

// ---- the floors

struct floors {
  double memcpy_gbps = 0, kernel_gbps = 0, launch_us = 0;
  double best_gbps() const { return std::max(memcpy_gbps, kernel_gbps); }
};

floors measure_floors(const helpers& k, const settings& cfg, cudaStream_t s) {
  floors f;
  const std::size_t bytes = static_cast<std::size_t>(cfg.copy_floor_bytes) / 16 * 16;
  {
    device_buffer src(bytes), dst(bytes);
    check(cudaMemsetAsync(src.get(), 0x3c, bytes, s), "cudaMemsetAsync");
    const timing memcpy_t = time_device(
        [&] { check(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync"); },
        3, cfg.floor_reps, s);
    const std::uint64_t n4 = bytes / 16;
    const timing kernel_t = time_device(
        [&] { k.copy_float4({static_cast<unsigned>((n4 + 255) / 256)}, {256}, src.get(), dst.get(), n4); }, 3,
        cfg.floor_reps, s);
    f.memcpy_gbps = 2.0 * static_cast<double>(bytes) / (memcpy_t.median_ms * 1e6);
    f.kernel_gbps = 2.0 * static_cast<double>(bytes) / (kernel_t.median_ms * 1e6);
    json_line()
        .str("side", "cupp").str("case", "floor_memcpy_d2d").str("metric", "floor")
        .num("ms", memcpy_t.median_ms).num("min_ms", memcpy_t.min_ms)
        .integer("bytes", static_cast<i64>(2 * bytes)).num("gbps", f.memcpy_gbps).print();
    json_line()
        .str("side", "cupp").str("case", "floor_copy_kernel").str("metric", "floor")
        .num("ms", kernel_t.median_ms).num("min_ms", kernel_t.min_ms)
        .integer("bytes", static_cast<i64>(2 * bytes)).num("gbps", f.kernel_gbps).print();
  }
  f.launch_us = time_host_us([&] { k.empty({1}, {1}); }, cfg, s);
  json_line().str("side", "cupp").str("case", "launch_empty").str("metric", "launch")
      .num("us_per_call", f.launch_us).str("note", "empty kernel through cupp::cuda::RawKernel").print();
  return f;
}

// ---- checking a sample against a host reference

cupp::shape_t broadcast_shape(const std::vector<input_spec>& inputs) {
  std::size_t nd = 0;
  for (const auto& in : inputs) nd = std::max(nd, in.shape.size());
  cupp::shape_t out(nd, 1);
  for (const auto& in : inputs)
    for (std::size_t i = 0; i < in.shape.size(); ++i) {
      i64& o = out[nd - in.shape.size() + i];
      if (o == 1) o = in.shape[i];
      else if (in.shape[i] != 1 && in.shape[i] != o) throw std::runtime_error("shapes do not broadcast");
    }
  return out;
}

// Byte offsets from a.data() of the elements at the given multi-indices of the broadcast shape.
std::vector<long long> offsets_of(const cupp::ndarray& a, const std::vector<cupp::shape_t>& indices) {
  std::vector<long long> offsets;
  offsets.reserve(indices.size());
  const auto shape = a.shape();
  const auto strides = a.strides();
  for (const auto& idx : indices) {
    long long off = 0;
    const std::size_t lead = idx.size() - shape.size();
    for (std::size_t d = 0; d < shape.size(); ++d)
      if (shape[d] != 1) off += idx[lead + d] * strides[d];
    offsets.push_back(off);
  }
  return offsets;
}

// The elements of `a` at the given indices, as bytes (itemsize each), via the gather kernel.
std::vector<std::byte> gather(const helpers& k, const cupp::ndarray& a, const std::vector<cupp::shape_t>& indices,
                              cudaStream_t s) {
  const std::vector<long long> offsets = offsets_of(a, indices);
  const int n = static_cast<int>(offsets.size());
  const int itemsize = static_cast<int>(a.itemsize());
  device_buffer d_offsets(offsets.size() * sizeof(long long)), d_out(offsets.size() * a.itemsize());
  check(cudaMemcpyAsync(d_offsets.get(), offsets.data(), d_offsets.bytes(), cudaMemcpyHostToDevice, s),
        "cudaMemcpyAsync (offsets)");
  k.gather({static_cast<unsigned>((n + 255) / 256)}, {256}, a.data(), d_offsets.get(), d_out.get(), itemsize, n);
  check(cudaGetLastError(), "gather launch");
  std::vector<std::byte> host(d_out.bytes());
  check(cudaMemcpyAsync(host.data(), d_out.get(), host.size(), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (sample)");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (sample)");
  return host;
}

std::complex<double> value_at(const std::byte* p, cupp::dtype t) {
  auto load = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  using cupp::type_id;
  switch (t.id()) {
    case type_id::bool_: return load(std::uint8_t{}) != 0 ? 1.0 : 0.0;
    case type_id::int8: return static_cast<double>(load(std::int8_t{}));
    case type_id::int16: return static_cast<double>(load(std::int16_t{}));
    case type_id::int32: return static_cast<double>(load(std::int32_t{}));
    case type_id::int64: return static_cast<double>(load(std::int64_t{}));
    case type_id::uint8: return static_cast<double>(load(std::uint8_t{}));
    case type_id::uint16: return static_cast<double>(load(std::uint16_t{}));
    case type_id::uint32: return static_cast<double>(load(std::uint32_t{}));
    case type_id::uint64: return static_cast<double>(load(std::uint64_t{}));
    case type_id::float16: return static_cast<double>(cupp::float16_t::from_bits(load(std::uint16_t{})));
    case type_id::bfloat16: return static_cast<double>(cupp::bfloat16_t::from_bits(load(std::uint16_t{})));
    case type_id::float32: return static_cast<double>(load(float{}));
    case type_id::float64: return load(double{});
    case type_id::complex64: {
      const auto c = load(std::complex<float>{});
      return {c.real(), c.imag()};
    }
    case type_id::complex128: return load(std::complex<double>{});
    default: throw std::runtime_error("no host reference for dtype " + t.name());
  }
}

// Machine epsilon of a dtype's (component) type; integers and bool: 0 (exact).
double epsilon_of(cupp::dtype t) {
  using cupp::type_id;
  switch (t.id()) {
    case type_id::float16: return 0x1p-10;
    case type_id::bfloat16: return 0x1p-7;
    case type_id::float32:
    case type_id::complex64: return 0x1p-23;
    case type_id::float64:
    case type_id::complex128: return 0x1p-52;
    default: return 0;
  }
}

std::complex<double> reference(std::string_view op, const std::vector<std::complex<double>>& x, bool complex_math) {
  if (op == "add") return x.at(0) + x.at(1);
  if (op == "subtract") return x.at(0) - x.at(1);
  if (op == "multiply") return x.at(0) * x.at(1);
  if (op == "sin") return complex_math ? std::sin(x.at(0)) : std::complex<double>(std::sin(x.at(0).real()));
  if (op == "cos") return complex_math ? std::cos(x.at(0)) : std::complex<double>(std::cos(x.at(0).real()));
  if (op == "exp") return complex_math ? std::exp(x.at(0)) : std::complex<double>(std::exp(x.at(0).real()));
  if (op == "astype") return x.at(0);
  throw std::runtime_error("no host reference for op " + std::string(op));
}

// Compares `out` with the host reference at `samples` pseudo-random positions (and the first and
// last element). Returns "ok" or a description of the first mismatch and the count.
std::string check_sample(const helpers& k, const case_spec& spec, const std::vector<cupp::ndarray>& inputs,
                         const cupp::ndarray& out, int samples, cudaStream_t s) {
  if (out.dtype() != spec.out_type)
    return "result dtype " + out.dtype().name() + ", expected " + spec.out_type.name();
  const auto shape = out.shape();
  std::vector<cupp::shape_t> indices;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const i64 size = out.size();
  for (int i = 0; i < samples && size > 0; ++i) {
    i64 flat = i == 0 ? 0 : i == 1 ? size - 1 : 0;
    if (i > 1) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      flat = static_cast<i64>((state >> 11) % static_cast<std::uint64_t>(size));
    }
    cupp::shape_t idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
      idx[d] = flat % shape[d];
      flat /= shape[d];
    }
    indices.push_back(std::move(idx));
  }
  std::vector<std::vector<std::byte>> in_bytes;
  for (const auto& a : inputs) in_bytes.push_back(gather(k, a, indices, s));
  const std::vector<std::byte> out_bytes = gather(k, out, indices, s);

  const bool complex_math = spec.out_type.is_complex();
  const double eps = std::max(epsilon_of(spec.out_type), 0x1p-52);
  int bad = 0;
  std::string first;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    std::vector<std::complex<double>> x;
    for (std::size_t j = 0; j < inputs.size(); ++j)
      x.push_back(value_at(in_bytes[j].data() + i * inputs[j].itemsize(), inputs[j].dtype()));
    const std::complex<double> want = reference(spec.op, x, complex_math);
    const std::complex<double> got = value_at(out_bytes.data() + i * out.itemsize(), out.dtype());
    const double tol = spec.out_type.is_integer() ? 0.5 : 4 * eps * std::max(std::abs(want), 1.0);
    if (!(std::abs(got - want) <= tol)) {  // NaN (the poison) fails too
      if (bad++ == 0) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "element %zu: got (%.9g, %.9g), expected (%.9g, %.9g)", i, got.real(),
                      got.imag(), want.real(), want.imag());
        first = buf;
      }
    }
  }
  if (bad == 0) return "ok";
  return std::to_string(bad) + " of " + std::to_string(indices.size()) + " sampled elements wrong; first: " + first;
}

// ---- the sample compare.py checks against CuPy's, and the deliberate break

struct run_options {
  std::string samples_dir;          // --samples: where <case>.npy go (none: not written)
  std::vector<std::string> broken;  // CUPP_BENCH_BREAK: cases whose result is corrupted
};
run_options g_run;

// Flat C-order positions of the sample: every element when there are at most n, else n positions
// i * (size - 1) / (n - 1) (the first and the last included). side_common.sample_positions is the same.
std::vector<i64> sample_positions(i64 size, int n) {
  std::vector<i64> p;
  if (size <= n) {
    for (i64 i = 0; i < size; ++i) p.push_back(i);
  } else {
    for (int i = 0; i < n; ++i) p.push_back(n == 1 ? 0 : static_cast<i64>(i) * (size - 1) / (n - 1));
  }
  return p;
}

std::vector<cupp::shape_t> unravel(const std::vector<i64>& flat, std::span<const i64> shape) {
  std::vector<cupp::shape_t> out;
  out.reserve(flat.size());
  for (i64 f : flat) {
    cupp::shape_t idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
      idx[d] = f % shape[d];
      f /= shape[d];
    }
    out.push_back(std::move(idx));
  }
  return out;
}

// A one-dimensional .npy (format 1.0) of float64 or complex128 values.
void write_npy(const std::string& path, const std::vector<std::complex<double>>& values, bool complex) {
  std::string header = std::string("{'descr': '") + (complex ? "<c16" : "<f8") +
                       "', 'fortran_order': False, 'shape': (" + std::to_string(values.size()) + ",), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  const unsigned short len = static_cast<unsigned short>(header.size());
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  std::fwrite(magic, 1, 8, f);
  const unsigned char len_le[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
  std::fwrite(len_le, 1, 2, f);
  std::fwrite(header.data(), 1, header.size(), f);
  for (const auto& v : values) {
    const double re = v.real(), im = v.imag();
    std::fwrite(&re, sizeof re, 1, f);
    if (complex) std::fwrite(&im, sizeof im, 1, f);
  }
  if (std::fclose(f) != 0) throw std::runtime_error("cannot write " + path);
}

// After cupp's own check: corrupts the last element when the case is named in CUPP_BENCH_BREAK,
// then writes the sample of `result` and names it in the line.
void finish_result(const helpers& k, const case_spec& spec, const cupp::ndarray& result, json_line& line,
                   const settings& cfg, cudaStream_t s) {
  const auto shape = result.shape();
  const i64 size = result.size();
  if (size > 0 && std::find(g_run.broken.begin(), g_run.broken.end(), spec.name) != g_run.broken.end()) {
    const std::vector<long long> last = offsets_of(result, unravel({size - 1}, shape));
    check(cudaMemsetAsync(static_cast<char*>(result.data()) + last[0], 0x40, result.itemsize(), s),
          "cudaMemsetAsync (break)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (break)");
    line.str("broken", "CUPP_BENCH_BREAK: last element overwritten");
  }
  if (g_run.samples_dir.empty()) return;
  const std::vector<i64> flat = sample_positions(size, cfg.check_samples);
  const std::vector<std::byte> bytes = flat.empty() ? std::vector<std::byte>{} : gather(k, result, unravel(flat, shape), s);
  std::vector<std::complex<double>> values;
  for (std::size_t i = 0; i < flat.size(); ++i) values.push_back(value_at(bytes.data() + i * result.itemsize(), result.dtype()));
  const std::string path = g_run.samples_dir + "/" + spec.name + ".npy";
  write_npy(path, values, result.dtype().is_complex());
  line.str("sample", path).integer("out_size", size);
}

// ---- one case

// The generated binding of the case (generated/bench/bench_calls.cpp), or why there is none.
const cupp::bench::case_binding* find_binding(const case_spec& spec, std::string& why) {
  for (const cupp::bench::case_binding& b : cupp::bench::case_bindings()) {
    if (b.name != spec.name) continue;
    if (b.expr != spec.expr || b.setup != spec.setup) {
      why = "cupp_bench was built from another expression for this case (rebuild it)";
      return nullptr;
    }
    return &b;
  }
  why = spec.expr.empty() ? "the case has no expr" : "cupp_bench was built without this case (rebuild it)";
  return nullptr;
}

// Every case: its inputs hash-filled (seeds 1234, 1235, ... as on CuPy's side) into the frame as
// x0, x1, ... (transposed views where the table says so), out= when given, the setup arrays;
// then the generated call, bound once, timed by the case's metric. Outputs are poisoned first;
// the result checked (element-wise cases against a host reference, the others by dtype) and
// sampled comes from one more call into freshly poisoned memory.
void run_case(const helpers& k, const case_spec& spec, const settings& cfg, const floors& fl, cudaStream_t s) {
  std::string why;
  const cupp::bench::case_binding* binding = find_binding(spec, why);
  if (binding == nullptr) {
    json_line().str("side", "cupp").str("case", spec.name).str("metric", spec.metric).str("missing", why).print();
    return;
  }
  cupp::bench::frame frame;
  std::vector<cupp::ndarray> inputs;
  i64 bytes = 0;
  unsigned seed = 1234;
  for (const input_spec& in : spec.inputs) {
    cupp::shape_t data_shape = in.shape;
    if (in.transpose) std::reverse(data_shape.begin(), data_shape.end());
    cupp::ndarray data = cupp::empty(data_shape, in.type);
    fill_random(k, data, seed++);
    inputs.push_back(in.transpose ? data.T() : data);
    bytes += static_cast<i64>(data.nbytes());  // every input at its own size
    frame.put("x" + std::to_string(inputs.size() - 1), inputs.back());
  }
  cupp::ndarray out;
  if (spec.out_given) {
    out = cupp::empty(broadcast_shape(spec.inputs), spec.out_type);
    frame.put("out", out);
  }
  for (const cupp::bench::setup_step& step : binding->steps) frame.put(std::string(step.name), step.make(frame)());
  const cupp::bench::timed_call call = binding->bind(frame);
  cupp::ndarray result = call();  // the first compile, and the result's shape, out of the timing
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (inputs)");
  const cupp::shape_t out_shape(result.shape().begin(), result.shape().end());
  const cupp::dtype out_type = result.dtype();
  const bool into_out = !out.is_null() && result.data() == out.data();
  bytes += static_cast<i64>(result.nbytes());

  // Poison: the out array, or (allocating) a block of the result's size handed back to the pool,
  // which gives it to the next allocation of that size on this stream.
  auto poison = [&] {
    if (into_out) {
      check(cudaMemsetAsync(out.data(), 0xff, out.nbytes(), s), "cudaMemsetAsync (poison)");
    } else {
      result = cupp::ndarray();
      const cupp::ndarray scratch = cupp::empty(out_shape, out_type);
      if (scratch.nbytes() > 0) check(cudaMemsetAsync(scratch.data(), 0xff, scratch.nbytes(), s), "cudaMemsetAsync (poison)");
    }
  };

  json_line line;
  line.str("side", "cupp").str("case", spec.name).str("metric", spec.metric);
  if (spec.metric == "host") {
    const host_pair h = time_host_against_floor([&] { [[maybe_unused]] const cupp::ndarray r = call(); },
                                                [&] { k.empty({1}, {1}); }, cfg, s);
    line.num("us_per_call", h.us).num("launch_us", h.floor_us).num("ratio", h.us / h.floor_us);
    if (spec.target > 0) line.num("target", spec.target).str("pass", h.us / h.floor_us <= spec.target ? "yes" : "no");
  } else {
    poison();
    const timing t = time_device([&] { result = call(); }, cfg.warmup, cfg.reps, s);
    const double gbps = static_cast<double>(bytes) / (t.median_ms * 1e6);
    line.num("ms", t.median_ms).num("min_ms", t.min_ms).integer("bytes", bytes).num("gbps", gbps);
    if (spec.metric == "bandwidth") {
      const double fraction = gbps / fl.best_gbps();
      line.num("floor_gbps", fl.best_gbps()).num("fraction", fraction).num("target", spec.target);
      line.str("pass", fraction >= spec.target ? "yes" : "no");
    }
  }
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (case)");
  std::string verdict = "ok";
  if (spec.check) {
    poison();
    result = call();
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (case)");
    if (spec.kind == "elementwise") {
      verdict = check_sample(k, spec, inputs, result, cfg.check_samples, s);
    } else if (result.dtype() != spec.out_type) {
      verdict = "result dtype " + result.dtype().name() + ", expected " + spec.out_type.name();
    }
    line.str("check", verdict);
    finish_result(k, spec, result, line, cfg, s);
  }
  if (!spec.note.empty()) line.str("note", spec.note);
  line.print();
  if (verdict != "ok") throw std::runtime_error("check failed: " + verdict);
}

std::string default_cases_path(const char* argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path beside = fs::absolute(fs::path(argv0), ec).parent_path() / "cases.json";
  if (!ec && fs::exists(beside, ec)) return beside.string();
  return CUPP_BENCH_CASES;
}

bool selected(const std::string& name, const std::vector<std::string>& only) {
  return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

}  // namespace

int main(int argc, char** argv) {
  std::string cases_path = default_cases_path(argv[0]);
  std::vector<std::string> only;
  std::optional<int> reps;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: %s [--cases FILE] [--only NAME[,NAME...]] [--reps N] [--samples DIR]\n"
          "  Runs the cases of FILE that cupp has (default: cases.json beside the program, else\n"
          "  %s) and the copy and launch floors on the current device; prints JSON lines\n"
          "  (a case cupp lacks: a line with \"missing\"). --samples DIR: each result's sampled values\n"
          "  go to DIR/<case>.npy. CUPP_BENCH_BREAK=NAME[,NAME] corrupts those cases' results.\n",
          argv[0], CUPP_BENCH_CASES);
      return 0;
    }
    if (arg == "--cases" && i + 1 < argc) {
      cases_path = argv[++i];
    } else if (arg == "--only" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t pos = 0; pos <= list.size();) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        if (comma > pos) only.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    } else if (arg == "--reps" && i + 1 < argc) {
      reps = std::stoi(argv[++i]);
    } else if (arg == "--samples" && i + 1 < argc) {
      g_run.samples_dir = argv[++i];
    } else {
      std::fprintf(stderr, "unknown argument %s (try --help)\n", argv[i]);
      return 2;
    }
  }
  if (const char* broken = std::getenv("CUPP_BENCH_BREAK")) {
    const std::string list = broken;
    for (std::size_t pos = 0; pos <= list.size();) {
      const std::size_t comma = std::min(list.find(',', pos), list.size());
      if (comma > pos) g_run.broken.push_back(list.substr(pos, comma - pos));
      pos = comma + 1;
    }
  }
  case_table table;
  try {
    table = load_cases(cases_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cupp_bench: cannot read %s: %s\n", cases_path.c_str(), e.what());
    return 2;
  }
  if (!cc::is_available()) {  // the table is read first, so that a machine without a GPU checks it
    std::fprintf(stderr, "cupp_bench: %zu cases in %s; no CUDA device available, nothing measured\n",
                 table.cases.size(), cases_path.c_str());
    json_line().str("side", "cupp").str("case", "device").str("metric", "info").str("skipped", "no CUDA device").print();
    return 0;
  }
  if (reps) table.config.reps = *reps;

  int failures = 0;
  try {
    const cc::Stream stream = cc::Stream::create();
    cc::StreamGuard guard(stream);
    const cudaStream_t s = stream.handle();
    check(cudaFree(nullptr), "cudaFree(nullptr)");  // the context exists before anything is timed
    const auto props = cc::get_device_properties(cc::current_device());
    json_line().str("side", "cupp").str("case", "device").str("metric", "info").str("name", props.name)
        .str("cases_file", cases_path).integer("reps", table.config.reps).print();
    const helpers kernels;
    kernels.module.compile();
    const floors fl = measure_floors(kernels, table.config, s);
    for (const case_spec& spec : table.cases) {
      if (!selected(spec.name, only) || spec.kind == "jit") continue;  // jit: compare.py runs it
      std::fprintf(stderr, "cupp: %s\n", spec.name.c_str());
      try {
        run_case(kernels, spec, table.config, fl, s);
      } catch (const std::exception& e) {
        ++failures;
        std::fprintf(stderr, "cupp: %s: %s\n", spec.name.c_str(), e.what());
        if (std::string_view(e.what()).starts_with("check failed")) continue;  // its line was printed
        json_line().str("side", "cupp").str("case", spec.name).str("metric", spec.metric).str("error", e.what()).print();
        const cudaError_t sticky = cudaDeviceSynchronize();
        if (sticky != cudaSuccess) {
          std::fprintf(stderr, "cupp: the CUDA context is broken (%s); stopping\n", cudaGetErrorName(sticky));
          return 1;
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cupp_bench: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}

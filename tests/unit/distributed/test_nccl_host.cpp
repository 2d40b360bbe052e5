// The distributed module without a GPU: libnccl's loading (a missing library, a library without
// NCCL's symbols, CUPP_NCCL_LIBRARY in a child process where nothing loads, the candidates'
// order), NCCL's results as CudaError, every dtype's NCCL reduction type and the refusals, and the
// argument checks that come before any NCCL call. Loading libnccl and ncclGetUniqueId need no GPU;
// the tests that use the real library set NCCL_NVLS_ENABLE=0 first and skip, saying so, where
// libnccl is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits.h>
#include <sstream>
#include <string>
#include <vector>

#include "cupp/cuda/nccl.hpp"
#include "cupp/distributed.hpp"
#include "cupp/errors.hpp"
#include "cupp/modules.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "nccl_checks.hpp"
#include "nccl_library.hpp"
#include "nccl_types.hpp"

namespace cupp::cuda::nccl {
namespace {

using test::error_of;

void nvls_off() { ::setenv("NCCL_NVLS_ENABLE", "0", 1); }

std::vector<std::byte> zero_id(std::size_t n = unique_id_bytes) { return std::vector<std::byte>(n); }

TEST(NcclHost, CandidatesOrder) {
  EXPECT_EQ(detail::library_candidates("/opt/x/libnccl.so", "/usr/local/cuda-13.0"),
            std::vector<std::string>{"/opt/x/libnccl.so"});
  EXPECT_EQ(detail::library_candidates(nullptr, "/usr/local/cuda-13.0"),
            (std::vector<std::string>{"libnccl.so.2", "/usr/local/cuda-13.0/lib64/libnccl.so.2",
                                      "/usr/local/cuda/lib64/libnccl.so.2"}));
  EXPECT_EQ(detail::library_candidates("", "/usr/local/cuda"),
            (std::vector<std::string>{"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"}));
}

TEST(NcclHost, MissingLibraryIsAnErrorNotACrash) {
  const detail::load_result r = detail::load_library("/nonexistent/folder/libnccl.so.2");
  EXPECT_FALSE(r.loaded);
  EXPECT_EQ(r.functions.handle, nullptr);
  EXPECT_NE(r.error.find("dlopen(/nonexistent/folder/libnccl.so.2) failed: "), std::string::npos) << r.error;
}

TEST(NcclHost, LibraryWithoutNcclSymbolsIsRefused) {
  // libm is on every glibc system and has no NCCL symbol.
  const detail::load_result r = detail::load_library("libm.so.6");
  EXPECT_FALSE(r.loaded);
  EXPECT_EQ(r.error.rfind("libm.so.6: dlsym(ncclGetVersion) failed: ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("undefined symbol: ncclGetVersion"), std::string::npos) << r.error;
  EXPECT_EQ(r.functions.handle, nullptr);
}

TEST(NcclHost, ResultsBecomeCudaErrorsNamingTheCall) {
  detail::api fake;
  fake.GetErrorString = [](ncclResult_t) -> const char* { return "invalid usage (fake)"; };
  fake.GetLastError = [](ncclComm_t) -> const char* { return "peer 3 is not in the group"; };
  try {
    detail::throw_nccl_error(fake, ncclInvalidUsage, "ncclSend", nullptr);
    FAIL() << "no error";
  } catch (const CudaError& e) {
    EXPECT_STREQ(e.what(), "ncclSend failed: ncclInvalidUsage (invalid usage (fake)): peer 3 is not in the group");
    EXPECT_EQ(e.code(), static_cast<int>(ncclInvalidUsage));
  }
  fake.GetLastError = [](ncclComm_t) -> const char* { return ""; };
  EXPECT_EQ(error_of<CudaError>([&] { detail::check(fake, ncclSystemError, "ncclAllReduce"); }),
            "ncclAllReduce failed: ncclSystemError (invalid usage (fake))");
  EXPECT_EQ(error_of<CudaError>([&] { detail::check(fake, ncclSuccess, "ncclAllReduce"); }), "<no error>");
  EXPECT_STREQ(detail::result_name(ncclRemoteError), "ncclRemoteError");
  EXPECT_STREQ(detail::result_name(99), "unknown ncclResult_t");
}

TEST(NcclHost, ReductionTypeOfEveryDtype) {
  struct row {
    type_id id;
    ncclDataType_t type;
    std::size_t per;
  };
  const std::array<row, 11> rows{{{type_id::int8, ncclInt8, 1},
                                  {type_id::uint8, ncclUint8, 1},
                                  {type_id::int32, ncclInt32, 1},
                                  {type_id::uint32, ncclUint32, 1},
                                  {type_id::int64, ncclInt64, 1},
                                  {type_id::uint64, ncclUint64, 1},
                                  {type_id::float16, ncclFloat16, 1},
                                  {type_id::bfloat16, ncclBfloat16, 1},
                                  {type_id::float32, ncclFloat32, 1},
                                  {type_id::float64, ncclFloat64, 1},
                                  {type_id::bool_, ncclUint8, 1}}};
  const std::array<std::pair<reduce_op, ncclRedOp_t>, 5> ops{{{reduce_op::sum, ncclSum},
                                                               {reduce_op::prod, ncclProd},
                                                               {reduce_op::max, ncclMax},
                                                               {reduce_op::min, ncclMin},
                                                               {reduce_op::avg, ncclAvg}}};
  for (const row& r : rows)
    for (const auto& [op, nop] : ops) {
      SCOPED_TRACE(dtype(r.id).name() + " " + to_string(op));
      if (r.id == type_id::bool_ && op == reduce_op::avg) continue;
      const detail::reduction_type t = detail::reduction_type_of(r.id, op, "all_reduce");
      EXPECT_EQ(t.type, r.type);
      EXPECT_EQ(t.per_element, r.per);
      ncclRedOp_t expected = nop;
      if (r.id == type_id::bool_ && op == reduce_op::sum) expected = ncclMax;   // logical or
      if (r.id == type_id::bool_ && op == reduce_op::prod) expected = ncclMin;  // logical and
      EXPECT_EQ(t.op, expected);
    }
  for (type_id c : {type_id::complex64, type_id::complex128}) {
    const ncclDataType_t part = c == type_id::complex64 ? ncclFloat32 : ncclFloat64;
    for (reduce_op op : {reduce_op::sum, reduce_op::avg}) {
      const detail::reduction_type t = detail::reduction_type_of(c, op, "reduce");
      EXPECT_EQ(t.type, part);
      EXPECT_EQ(t.per_element, 2u);
      EXPECT_EQ(t.op, detail::nccl_op(op));
    }
  }
}

TEST(NcclHost, ReductionRefusals) {
  EXPECT_EQ(error_of<TypeError>([] { detail::reduction_type_of(int16, reduce_op::sum, "all_reduce"); }),
            "nccl all_reduce: cannot reduce dtype int16 with 'sum': NCCL has no 16-bit integer type (it reduces "
            "int8, uint8, int32, uint32, int64, uint64, float16, bfloat16, float32, float64)");
  EXPECT_NE(error_of<TypeError>([] { detail::reduction_type_of(uint16, reduce_op::max, "reduce"); }), "<no error>");
  EXPECT_EQ(error_of<TypeError>([] { detail::reduction_type_of(complex64, reduce_op::prod, "reduce_scatter"); }),
            "nccl reduce_scatter: cannot reduce dtype complex64 with 'prod': NCCL reduces complex numbers as pairs of "
            "floats, which is right for sum and avg only");
  EXPECT_NE(error_of<TypeError>([] { detail::reduction_type_of(complex128, reduce_op::max, "x"); }), "<no error>");
  EXPECT_NE(error_of<TypeError>([] { detail::reduction_type_of(complex128, reduce_op::min, "x"); }), "<no error>");
  EXPECT_EQ(error_of<TypeError>([] { detail::reduction_type_of(bool_, reduce_op::avg, "all_reduce"); }),
            "nccl all_reduce: cannot reduce dtype bool with 'avg': the mean of bools is not a bool");
  EXPECT_EQ(error_of<TypeError>([] { detail::reduction_type_of(dtype::void_(4), reduce_op::sum, "all_reduce"); }),
            "nccl all_reduce: cannot reduce dtype V4 with 'sum': NCCL reduces numbers only");
  EXPECT_EQ(error_of<ValueError>([] { detail::reduction_type_of(float32, static_cast<reduce_op>(9), "all_reduce"); }),
            "nccl all_reduce: unknown reduce_op 9");
}

TEST(NcclHost, OpNames) {
  EXPECT_STREQ(to_string(reduce_op::sum), "sum");
  EXPECT_STREQ(to_string(reduce_op::prod), "prod");
  EXPECT_STREQ(to_string(reduce_op::max), "max");
  EXPECT_STREQ(to_string(reduce_op::min), "min");
  EXPECT_STREQ(to_string(reduce_op::avg), "avg");
}

// Checked before NCCL is loaded or a device is touched.
TEST(NcclHost, CommunicatorArgumentChecks) {
  EXPECT_EQ(error_of<ValueError>([] { Communicator(0, zero_id(), 0); }),
            "nccl Communicator: ndev must be at least 1, got 0");
  EXPECT_EQ(error_of<ValueError>([] { Communicator(2, zero_id(), 2); }),
            "nccl Communicator: rank 2 is out of range for 2 ranks");
  EXPECT_EQ(error_of<ValueError>([] { Communicator(1, zero_id(), -1); }),
            "nccl Communicator: rank -1 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([] { Communicator(1, zero_id(127), 0); }),
            "nccl Communicator: the unique id has 127 bytes, expected 128 (get_unique_id()'s bytes)");
  EXPECT_EQ(error_of<ValueError>([] { Communicator::init_all(std::span<const int>()); }),
            "nccl Communicator.init_all: no devices given");
  EXPECT_EQ(error_of<ValueError>([] { Communicator::init_all(0); }),
            "nccl Communicator.init_all: n must be at least 1, got 0");
}

// The collectives' checks on arrays over host bytes (device 0; nothing reads them).
TEST(NcclHost, CollectiveArgumentChecks) {
  test::fake_array x({8}, float32), other({8}, float64), two_d({2, 4}, float32);
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_buffer(x.a, "all_reduce", "send", 1, false); }),
            "nccl all_reduce: send is on device 0, the communicator on device 1");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_buffer(x.a, "all_reduce", "send", 0, false); }), "<no error>");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_buffer(ndarray(), "reduce", "recv", 0, true); }),
            "nccl reduce: recv is a null ndarray");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_buffer(x.a(slice(0, 8, 2)), "send", "array", 0, false); }),
            "nccl send: array must be C-contiguous (NCCL takes one contiguous buffer; copy it with "
            "cupp::ascontiguousarray)");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_buffer(two_d.a.T(), "broadcast", "buffer", 0, true); }),
            "nccl broadcast: buffer must be C-contiguous (NCCL takes one contiguous buffer; copy it with "
            "cupp::ascontiguousarray)");
  const std::int64_t shape8[] = {8};
  const ndarray read_only = broadcast_to(x.a(slice(0, 1)), shape8);
  EXPECT_NE(error_of<ValueError>([&] { detail::require_buffer(read_only, "recv", "array", 0, true); }), "<no error>");
  EXPECT_EQ(error_of<TypeError>([&] { detail::require_same_dtype(x.a, other.a, "all_gather"); }),
            "nccl all_gather: send has dtype float32 and recv float64; they must be the same");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_elements(x.a, 16, "all_gather", "recv", "size() times send's"); }),
            "nccl all_gather: recv has 8 elements, expected 16 (size() times send's)");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_rank(4, 4, "send", "peer"); }),
            "nccl send: peer 4 is out of range for 4 ranks");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_rank(-1, 1, "reduce", "root"); }),
            "nccl reduce: root -1 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([&] { detail::require_rank(3, 4, "recv", "peer"); }), "<no error>");
}

TEST(NcclHost, RealLibraryWhereInstalled) {
  nvls_off();
  if (!available()) GTEST_SKIP() << "libnccl is not installed here: " << unavailable_reason();
  EXPECT_EQ(unavailable_reason(), "");
  EXPECT_FALSE(library_path().empty());
  EXPECT_GE(get_version(), detail::min_version);
  EXPECT_LT(get_version(), 30000);
  // ncclGetUniqueId needs no GPU: two ids are 128 bytes each and differ.
  const std::vector<std::byte> a = get_unique_id(), b = get_unique_id();
  EXPECT_EQ(a.size(), unique_id_bytes);
  EXPECT_EQ(b.size(), unique_id_bytes);
  EXPECT_NE(a, b);
  // NCCL's own text for a result, through the loaded library.
  const detail::api& nccl = detail::library("test");
  const std::string msg = error_of<CudaError>([&] { detail::check(nccl, ncclInvalidArgument, "ncclAllReduce"); });
  EXPECT_EQ(msg.rfind("ncclAllReduce failed: ncclInvalidArgument (invalid argument", 0), 0u) << msg;
  // The module's `cupp info` rows.
  const std::vector<module_info_row> rows = distributed::info();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].key, "NCCL");
  EXPECT_EQ(rows[0].value.rfind("2.", 0), 0u) << rows[0].value;
  EXPECT_EQ(rows[1].key, "NCCL_NVLS_ENABLE");
  EXPECT_EQ(rows[1].value, "0");
}

TEST(NcclHost, ModuleIsListed) {
  bool found = false;
  for (const module_entry& m : modules())
    if (m.name == "distributed") found = true;
  EXPECT_TRUE(found);
}

// Run by UnavailableWhereNothingLoads in a child process whose CUPP_NCCL_LIBRARY names no library.
TEST(NcclHostChild, DISABLED_NothingLoads) {
  ASSERT_NE(std::getenv("CUPP_NCCL_LIBRARY"), nullptr);
  EXPECT_FALSE(available());
  EXPECT_EQ(library_path(), "");
  const std::string reason = unavailable_reason();
  EXPECT_NE(reason.find("dlopen(/nonexistent/cupp-test/libnccl.so.2) failed"), std::string::npos) << reason;
  const std::string e = error_of<CudaError>([] { get_unique_id(); });
  EXPECT_EQ(e.rfind("ncclGetUniqueId: NCCL is not available: dlopen(/nonexistent/cupp-test/libnccl.so.2) failed", 0),
            0u)
      << e;
  EXPECT_NE(e.find("set CUPP_NCCL_LIBRARY"), std::string::npos) << e;
  EXPECT_NE(error_of<CudaError>([] { get_version(); }), "<no error>");
  EXPECT_NE(error_of<CudaError>([] { group_start(); }), "<no error>");
  EXPECT_NE(error_of<CudaError>([] { group_end(); }), "<no error>");
  EXPECT_EQ(error_of<CudaError>([] { Communicator(1, zero_id(), 0); })
                .rfind("ncclCommInitRank: NCCL is not available", 0),
            0u);
  const std::vector<module_info_row> rows = distributed::info();
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].value.rfind("not available: dlopen(/nonexistent/cupp-test/libnccl.so.2)", 0), 0u)
      << rows[0].value;
  EXPECT_EQ(rows[2].value, "/nonexistent/cupp-test/libnccl.so.2");
}

TEST(NcclHost, UnavailableWhereNothingLoads) {
  std::array<char, PATH_MAX> self{};
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  ASSERT_GT(n, 0);
  const std::string log = ::testing::TempDir() + "cupp_nccl_child_" + std::to_string(::getpid()) + ".log";
  // (not in the parent's gtest shard: ctest runs the unit tests as shards, and a child that
  // inherited GTEST_TOTAL_SHARDS would run none of its one test)
  const std::string command = "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX -u GTEST_SHARD_STATUS_FILE "
                              "CUPP_NCCL_LIBRARY=/nonexistent/cupp-test/libnccl.so.2 NCCL_NVLS_ENABLE=0 '" +
                              std::string(self.data(), static_cast<std::size_t>(n)) +
                              "' --gtest_filter=NcclHostChild.DISABLED_NothingLoads --gtest_also_run_disabled_tests "
                              "> '" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(log.c_str());
  EXPECT_EQ(status, 0) << text.str();
  EXPECT_NE(text.str().find("[  PASSED  ] 1 test"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace cupp::cuda::nccl

// ---- block_array's checks that come before any device work

namespace cupp::distributed {
namespace {

using test::error_of;
using test::fake_array;

TEST(BlockArrayHost, ArgumentChecks) {
  EXPECT_EQ(error_of<ValueError>([] { block_array::distribute(ndarray(), {0}); }),
            "block_array.distribute: a is a null ndarray");
  fake_array two_d({2, 3}, float32), one_d({6}, float32), other({6}, int32), short_one({5}, float32);
  EXPECT_EQ(error_of<ValueError>([&] { block_array::distribute(two_d.a, {0}); }),
            "block_array.distribute: a 1-D block distribution takes a 1-D array, got 2 dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { block_array::distribute(one_d.a, std::span<const int>()); }),
            "block_array.distribute: no devices given");
  EXPECT_EQ(error_of<ValueError>([] { block_array::from_blocks({}); }), "block_array.from_blocks: no blocks given");
  EXPECT_EQ(error_of<TypeError>([&] { block_array::from_blocks({one_d.a, other.a}); }),
            "block_array.from_blocks: blocks of dtypes float32 and int32; they must be the same");
  EXPECT_EQ(error_of<ValueError>([&] { block_array::from_blocks({two_d.a}); }),
            "block_array.from_blocks: blocks must be 1-D, got 2 dimensions");
  const block_array x = block_array::from_blocks({one_d.a, short_one.a});
  EXPECT_EQ(x.size(), 11);
  EXPECT_EQ(x.nblocks(), 2);
  EXPECT_EQ(x.offset(1), 6);
  EXPECT_EQ(x.devices(), (std::vector<int>{0, 0}));
  const block_array y = block_array::from_blocks({short_one.a, one_d.a});
  EXPECT_FALSE(x.same_layout(y));
  EXPECT_TRUE(x.same_layout(block_array::from_blocks({one_d.a, short_one.a})));
  EXPECT_EQ(error_of<ValueError>([&] { apply(cupp::add, x, y); }),
            "distributed apply of 'add': the operands' blocks differ (6 on 0, 5 on 0) and (5 on 0, 6 on 0) (blocks "
            "and devices must match)");
}

}  // namespace
}  // namespace cupp::distributed

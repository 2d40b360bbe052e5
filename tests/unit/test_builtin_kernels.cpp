// The built-in kernel table (compiler/builtin_kernels.hpp): the blob's round trip and its
// defences against damage, what the key covers, that the library's table holds every built-in
// op's 32-bit-index program, and that a kernel cache miss on such a program loads it without
// NVRTC while any other program still compiles. No GPU needed: loading is injected.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compiler/builtin_kernels.hpp"
#include "compiler/kernel_cache.hpp"
#include "compiler/nvrtc_program.hpp"
#include "cupp/ops.hpp"
#include "routines/builtin_programs.hpp"
#include "routines/manipulation/manipulation_kernels.hpp"
#include "routines/routine_programs.hpp"
#include "engine/elementwise.hpp"
#include "engine/internal.hpp"
#include "engine/kernel_composer.hpp"
#include "engine/layout_plan.hpp"
#include "stand_in_cache.hpp"

namespace cupp::detail {
namespace {

std::span<const std::byte> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

builtin_entry entry(std::uint8_t tag, std::string binary, std::vector<std::string> names) {
  builtin_entry e;
  e.key.fill(tag);
  e.arch = 90;
  e.program.binary = std::move(binary);
  e.program.lowered_names = std::move(names);
  return e;
}

TEST(BuiltinKernels, BlobRoundTrip) {
  std::string big(100000, '\0');
  for (std::size_t i = 0; i < big.size(); i += 7) big[i] = static_cast<char>(i % 251);
  const std::vector<builtin_entry> entries = {entry(3, big, {"_Z1kIfEvPT_", "_Z1kIdEvPT_"}), entry(1, "x", {"k"})};
  const std::string blob = write_builtin_blob(entries);
  EXPECT_LT(blob.size(), big.size() / 2) << "the binaries are stored compressed";
  const builtin_table table(bytes_of(blob));
  ASSERT_FALSE(table.malformed());
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table.architectures(), std::vector<int>{90});
  for (const builtin_entry& e : entries) {
    const std::optional<compiled_program> found = table.find(e.key);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->binary, e.program.binary);
    EXPECT_EQ(found->lowered_names, e.program.lowered_names);
    EXPECT_FALSE(found->ptx);
  }
  digest256 other{};
  other.fill(2);
  EXPECT_FALSE(table.find(other).has_value());
}

TEST(BuiltinKernels, DamagedBlobsReadAsEmpty) {
  const std::string blob = write_builtin_blob(std::vector<builtin_entry>{entry(1, std::string(5000, 'a'), {"k"})});
  for (const std::size_t cut : {std::size_t{3}, std::size_t{12}, blob.size() / 2, blob.size() - 1}) {
    const builtin_table table(bytes_of(blob.substr(0, cut)));
    EXPECT_TRUE(table.malformed()) << "cut at " << cut;
    EXPECT_EQ(table.size(), 0u);
  }
  std::string wrong_magic = blob;
  wrong_magic[0] = 'X';
  EXPECT_TRUE(builtin_table(bytes_of(wrong_magic)).malformed());
  const builtin_table trailing(bytes_of(blob + "junk"));
  EXPECT_TRUE(trailing.malformed());
  const builtin_table empty(std::span<const std::byte>{});
  EXPECT_FALSE(empty.malformed());
  EXPECT_EQ(empty.size(), 0u);
  // A damaged deflate stream is not a binary: the entry is passed over (the caller compiles).
  std::string corrupt = blob;
  corrupt[corrupt.size() - 20] ^= 0x55;
  const builtin_table flipped(bytes_of(corrupt));
  ASSERT_EQ(flipped.size(), 1u);
  digest256 key{};
  key.fill(1);
  EXPECT_FALSE(flipped.find(key).has_value());
}

TEST(BuiltinKernels, KeyCoversSourceNamesNameAndArchitecture) {
  const program_source p{"cupp_k", "__global__ void k() {}", {"k"}, {}};
  const digest256 base = builtin_key(p, 90);
  EXPECT_EQ(builtin_key(p, 90), base);
  EXPECT_NE(builtin_key(p, 100), base);
  program_source q = p;
  q.source += " ";
  EXPECT_NE(builtin_key(q, 90), base);
  q = p;
  q.name = "cupp_j";
  EXPECT_NE(builtin_key(q, 90), base);
  q = p;
  q.name_expressions = {"j"};
  EXPECT_NE(builtin_key(q, 90), base);
  // Only cupp's own programs qualify: user options, module headers, PTX and debug do not.
  compile_flags flags;
  EXPECT_TRUE(builtin_eligible(p, flags));
  q = p;
  q.options = {"-DX=1"};
  EXPECT_FALSE(builtin_eligible(q, flags));
  flags.ptx = true;
  EXPECT_FALSE(builtin_eligible(p, flags));
  flags = {};
  flags.debug = true;
  EXPECT_FALSE(builtin_eligible(p, flags));
}

// Every kernel of an op's scalar program is found at its own index from its description, and
// descriptions the program does not hold are not.
TEST(BuiltinKernels, ScalarProgramIndexMatchesItsDescriptions) {
  std::size_t ops = 0;
  for (const op_spec& op : builtin_ops()) {
    const std::vector<kernel_desc> descs = scalar_descs(op, index_width::i32);
    if (op.nin < 2) {
      EXPECT_TRUE(descs.empty()) << op.name;
      continue;
    }
    ++ops;
    const std::size_t masks = (1u << op.nin) - 2;
    EXPECT_EQ(descs.size(), op.loops.size() * 2 * masks) << op.name;
    for (std::size_t i = 0; i < descs.size(); ++i) {
      const std::optional<std::size_t> at = scalar_program_index(op, descs[i]);
      ASSERT_TRUE(at.has_value()) << op.name << " kernel " << i;
      EXPECT_EQ(*at, i) << op.name;
      // the first half of each loop's kernels take values, the second broadcast elements
      const operand_access single = i / masks % 2 == 0 ? operand_access::value : operand_access::broadcast;
      const unsigned mask = static_cast<unsigned>(i % masks) + 1;
      for (std::size_t k = 0; k < descs[i].inputs.size(); ++k)
        EXPECT_EQ(descs[i].inputs[k].access, mask >> k & 1u ? single : operand_access::dense) << op.name << " kernel " << i;
    }
    if (op.nin == 3) {  // one input a value and another a broadcast element: not in the program
      kernel_desc mixed = descs[masks - 1];  // inputs 1 and 2 values
      mixed.inputs[2].access = operand_access::broadcast;
      EXPECT_FALSE(scalar_program_index(op, mixed).has_value()) << op.name;
    }
    for (std::size_t loop = 0; loop < op.loops.size(); ++loop)
      EXPECT_FALSE(scalar_program_index(op, all_loops_desc(op, loop, index_width::i32)).has_value()) << op.name;
    kernel_desc cast = descs.front();
    cast.inputs[1].storage = cast.inputs[1].storage == type_id::float64 ? type_id::float32 : type_id::float64;
    EXPECT_FALSE(scalar_program_index(op, cast).has_value()) << op.name << ": a cast in registers";
    kernel_desc strided = descs.front();
    strided.contiguous = false;
    strided.inputs[1].access = operand_access::strided;
    EXPECT_FALSE(scalar_program_index(op, strided).has_value()) << op.name;
  }
  EXPECT_GE(ops, 30u);  // add, subtract, ..., where, clip: 38 today
  const composed_program p = compose_scalar_program(*find_op("add"), index_width::i32);
  EXPECT_EQ(p.name, "cupp_add_scalars");
  EXPECT_EQ(p.kernels.size(), find_op("add")->loops.size() * 4);
}

// The 2-D broadcast program: each float32/float64 loop of the six arithmetic ops in its four
// forms, each at its own index; other widths, dtypes and ops are not in it.
TEST(BuiltinKernels, Broadcast2dProgramIndexMatchesItsDescriptions) {
  std::size_t ops = 0;
  for (const op_spec& op : builtin_ops()) {
    const std::vector<kernel_desc> descs = broadcast2d_descs(op, index_width::i32);
    if (!has_broadcast2d_program(op)) {
      EXPECT_TRUE(descs.empty()) << op.name;
      continue;
    }
    ++ops;
    ASSERT_FALSE(descs.empty()) << op.name;
    EXPECT_EQ(descs.size() % 4, 0u) << op.name;
    for (std::size_t i = 0; i < descs.size(); ++i) {
      const std::optional<std::size_t> at = broadcast2d_program_index(op, descs[i]);
      ASSERT_TRUE(at.has_value()) << op.name << " kernel " << i;
      EXPECT_EQ(*at, i) << op.name;
      const type_id t = op.loops[descs[i].loop].out[0];
      EXPECT_TRUE(t == type_id::float32 || t == type_id::float64) << op.name;
      EXPECT_EQ(descs[i].tiled, i % 4 >= 2) << op.name;
      // the matrix operands and the output are dense (C order over the plan), as the launcher says
      EXPECT_EQ(descs[i].outputs[0].access, operand_access::dense) << op.name;
      EXPECT_EQ(descs[i].inputs[i % 2 == 0 ? 0 : 1].access, operand_access::dense) << op.name;
    }
    kernel_desc narrow = descs[0];  // rows with a narrower vector (an unaligned view): not in it
    narrow.vec = 1;
    EXPECT_FALSE(broadcast2d_program_index(op, narrow).has_value()) << op.name;
    kernel_desc three = descs[0];
    three.ndim = 3;
    EXPECT_FALSE(broadcast2d_program_index(op, three).has_value()) << op.name;
    kernel_desc both = descs[2];  // both inputs transposed
    both.inputs[0].access = operand_access::tiled;
    EXPECT_FALSE(broadcast2d_program_index(op, both).has_value()) << op.name;
    for (std::size_t loop = 0; loop < op.loops.size(); ++loop) {
      kernel_desc other = descs[0];
      other.loop = loop;
      if (op.loops[loop].out[0] != type_id::float32 && op.loops[loop].out[0] != type_id::float64)
        EXPECT_FALSE(broadcast2d_program_index(op, other).has_value()) << op.name << " loop " << loop;
    }
  }
  EXPECT_EQ(ops, 6u);  // add, subtract, multiply, divide, maximum, minimum
  EXPECT_TRUE(broadcast2d_descs(*find_op("power"), index_width::i32).empty());
  EXPECT_EQ(compose_broadcast2d_program(*find_op("subtract"), index_width::i32).name, "cupp_subtract_broadcast2d");
}

// What the launcher describes for an op's loop over arrays of `shape`, given each operand's
// (broadcast) byte strides, inputs then the output, as run_elementwise plans them; the pointers are
// aligned stand-ins (nothing is read).
kernel_desc launch_description(const op_spec& op, type_id t, std::span<const std::int64_t> shape,
                               std::vector<std::vector<std::int64_t>> strides) {
  std::size_t loop = 0;
  while (loop < op.loops.size() && op.loops[loop].out[0] != t) ++loop;
  EXPECT_LT(loop, op.loops.size()) << op.name;
  const auto item = static_cast<std::int64_t>(dtype(t).itemsize());
  std::vector<engine::plan_input> inputs;
  for (const auto& s : strides) inputs.push_back(engine::plan_input{std::span<const std::int64_t>(s), item});
  const engine::launch_plan plan = engine::plan_launch(shape, inputs);
  std::vector<engine::launch_operand> ops;
  for (std::size_t k = 0; k < strides.size(); ++k) {
    const engine::operand_plan& o = plan.operands[k];
    const operand_access kind = o.kind == engine::access::dense       ? operand_access::dense
                                : o.kind == engine::access::broadcast ? operand_access::broadcast
                                                                      : operand_access::strided;
    ops.push_back({reinterpret_cast<std::byte*>(std::uintptr_t{1} << (20 + k)), kind, t, o.strides, {}});
  }
  return engine::describe_launch(op, loop, plan.size, plan.extents, plan.max_byte_offset, ops, nullptr);
}

// The common broadcasts of a first script, as the launcher really describes them, are held by
// the built-in-only programs: a matrix with a row or a column either side (the 2-D broadcast
// program) and an array with a 0-d array either side (the scalar program's broadcast half).
TEST(BuiltinKernels, CommonBroadcastLaunchesAreInTheBuiltInPrograms) {
  const std::int64_t matrix[] = {1000, 512};
  const std::vector<std::int64_t> c32 = {2048, 4}, row32 = {0, 4}, column32 = {4, 0};
  for (const char* name : {"subtract", "divide", "maximum"}) {
    const op_spec& op = *find_op(name);
    const kernel_desc right_row = launch_description(op, type_id::float32, matrix, {c32, row32, c32});
    const kernel_desc left_row = launch_description(op, type_id::float32, matrix, {row32, c32, c32});
    const kernel_desc right_column = launch_description(op, type_id::float32, matrix, {c32, column32, c32});
    const kernel_desc left_column = launch_description(op, type_id::float32, matrix, {column32, c32, c32});
    EXPECT_FALSE(right_row.contiguous || right_row.tiled) << name;
    EXPECT_TRUE(right_column.tiled && left_column.tiled) << name;
    const std::optional<std::size_t> forms[] = {
        broadcast2d_program_index(op, right_row), broadcast2d_program_index(op, left_row),
        broadcast2d_program_index(op, right_column), broadcast2d_program_index(op, left_column)};
    for (int f = 0; f < 4; ++f) {
      ASSERT_TRUE(forms[f].has_value()) << name << " form " << f;
      EXPECT_EQ(*forms[f] % 4, static_cast<std::size_t>(f)) << name;
    }
    // three dimensions (the distance matrix's (200, 1, 3) - (1, 20, 3)) are not in it
    const std::int64_t cube[] = {200, 20, 3};
    const kernel_desc distances = launch_description(op, type_id::float32, cube, {{12, 0, 4}, {0, 12, 4}, {240, 12, 4}});
    EXPECT_FALSE(broadcast2d_program_index(op, distances).has_value()) << name;
  }
  const std::int64_t vector[] = {1000};
  const std::vector<std::int64_t> dense = {4}, zero = {0};
  for (const char* name : {"subtract", "multiply", "add"}) {
    const op_spec& op = *find_op(name);
    for (const auto& in : {std::vector<std::vector<std::int64_t>>{dense, zero, dense}, {zero, dense, dense}}) {
      const kernel_desc d = launch_description(op, type_id::float32, vector, in);
      EXPECT_TRUE(d.contiguous) << name;
      EXPECT_TRUE(scalar_program_index(op, d).has_value()) << name << ": a 0-d operand";
    }
  }
  // clip(t, lo, hi) with 0-d bounds, and where(m, t, 0.0) (its scalar a 0-d array of t's dtype):
  // the runtime's own ops, whose scalar programs the table holds (builtin_programs.cpp)
  const kernel_desc clip = launch_description(clip_op(), type_id::float32, vector, {dense, zero, zero, dense});
  EXPECT_TRUE(scalar_program_index(clip_op(), clip).has_value());
  kernel_desc where = launch_description(where_op(), type_id::float32, vector, {dense, dense, zero, dense});
  where.inputs[0].storage = type_id::bool_;  // the mask is bool (the helper gives every operand t)
  EXPECT_TRUE(scalar_program_index(where_op(), where).has_value());
  const std::vector<program_source> programs = builtin_programs();
  for (const op_spec* op : {&clip_op(), &where_op()}) {
    const composed_program s = compose_scalar_program(*op, index_width::i32);
    EXPECT_TRUE(std::any_of(programs.begin(), programs.end(), [&](const program_source& p) { return p.source == s.source; }))
        << op->name << "'s scalar program is not in the built-in list";
  }
}

// The copy op's cast program: every (from, to) pair and the fills, each at its own index.
TEST(BuiltinKernels, CastProgramIndexMatchesItsDescriptions) {
  const op_spec& copy = engine::copy_op_spec();
  const std::vector<kernel_desc> descs = cast_descs(copy, index_width::i32);
  ASSERT_EQ(descs.size(), copy.loops.size() * copy.loops.size());
  for (std::size_t i = 0; i < descs.size(); ++i) {
    const std::optional<std::size_t> at = cast_program_index(copy, descs[i]);
    ASSERT_TRUE(at.has_value()) << i;
    EXPECT_EQ(*at, i);
    EXPECT_EQ(descs[i].inputs[0].access == operand_access::value, i / copy.loops.size() == i % copy.loops.size()) << i;
  }
  kernel_desc same = descs[1];  // loop 0 into dtype 1 as a dense copy of dtype 0 into dtype 0: not a cast
  same.outputs[0].storage = copy.loops[0].out[0];
  EXPECT_FALSE(cast_program_index(copy, same).has_value());
  kernel_desc broadcast = descs[1];
  broadcast.inputs[0].access = operand_access::broadcast;
  EXPECT_FALSE(cast_program_index(copy, broadcast).has_value());
  EXPECT_EQ(compose_cast_program(copy, index_width::i32).name, "cupp__copy_casts");
}

#if CUPP_TEST_AOT_KERNELS
TEST(BuiltinKernels, LibraryHoldsEveryBuiltinOpsProgram) {
  const builtin_table& table = builtin_kernels();
  ASSERT_FALSE(table.malformed());
  const std::vector<int> archs = table.architectures();
  ASSERT_FALSE(archs.empty()) << "built with CUPP_AOT_KERNELS=ON but the table is empty";
  const std::vector<program_source> programs = builtin_programs();
  std::size_t elementwise = 0, reductions = 0, scans = 0;
  for (const op_spec& op : builtin_ops())  // all-loops (+ scalar, + 2-D broadcast) program
    elementwise += (op.nin >= 2 ? 2 : 1) + (has_broadcast2d_program(op) ? 1 : 0);
  elementwise += 4;  // where's and clip's (the runtime's own ops) all-loops and scalar programs
  for (const program_source& p : programs)
    reductions += p.name.starts_with("cupp_reduce_") || p.name.starts_with("cupp_arg") || p.name == "cupp_std" ||
                  p.name == "cupp_var" || p.name.starts_with("cupp_nan") || p.name.starts_with("cupp_moments");
  for (const program_source& p : programs) scans += p.name.starts_with("cupp_scan_");
  EXPECT_GE(scans, 40u) << "cumsum and cumprod of every dtype, with their NaN-skipping forms";
  std::set<digest256> routine_keys;  // instantiations that compose alike are one program
  for (const routine_program_instance& r : every_routine_program())
    if (r.program.headers.empty()) routine_keys.insert(builtin_key(r.program.to_source(), 90));
  const std::size_t routines = routine_keys.size();
  EXPECT_EQ(programs.size(), elementwise + reductions + scans + routines + 1);  // + the copy op's cast program
  EXPECT_GT(routines, 50u) << "every routine program instantiation";
  EXPECT_GT(reductions, 100u) << "sum, prod, max, min, any, all of every dtype in three layouts";
  std::set<digest256> keys;  // the list names each program once (the blob keeps one entry per key)
  for (const program_source& p : programs) EXPECT_TRUE(keys.insert(builtin_key(p, archs.front())).second) << p.name;
  EXPECT_EQ(table.size(), programs.size() * archs.size());
  for (const program_source& p : programs) {
    const std::optional<compiled_program> found = table.find(builtin_key(p, archs.front()));
    ASSERT_TRUE(found.has_value()) << p.name;
    EXPECT_EQ(found->lowered_names.size(), p.name_expressions.size()) << p.name;
    EXPECT_GT(found->binary.size(), 1000u) << p.name;
    EXPECT_EQ(found->binary.substr(0, 4), "\x7f" "ELF") << p.name << " is not a CUBIN";
  }
}

TEST(BuiltinKernels, CacheMissLoadsABuiltinProgramWithoutNvrtc) {
  const int arch = builtin_kernels().architectures().front();
  kernel_cache::settings s;
  s.use_disk = false;
  s.arch_of = [arch](int) { return arch; };
  std::atomic<int> loads{0};
  s.load = [&](const compiled_program& p, int) {
    ++loads;
    return std::make_unique<kernel_module>(library{}, std::vector<cudaKernel_t>(p.lowered_names.size()));
  };
  std::vector<std::string> lines;
  s.log_compiles = true;
  s.warn = [&](std::string_view m) { lines.emplace_back(m); };
  kernel_cache cache(s);
  const op_spec& add = *find_op("add");
  const auto before = nvrtc_compile_count();
  const kernel_module& m = cache.get(0, {"add", 1}, [&] {
    const composed_program p = compose_elementwise(add, index_width::i32);
    return program_source{p.name, p.source, p.kernels, {}};
  });
  EXPECT_EQ(nvrtc_compile_count(), before) << "a built-in program went to NVRTC";
  EXPECT_EQ(m.size(), add.loops.size());
  EXPECT_EQ(cache.stats().builtin_hits, 1u);
  EXPECT_EQ(cache.stats().compiles, 0u);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("cupp_add"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("(built in)"), std::string::npos) << lines[0];

  // 64-bit indices are not built in: that program compiles, as does one of a user's.
  program_source tiny{"cupp_test_not_builtin", "extern \"C\" __global__ void t(int* p) { *p = 7; }", {"t"}, {}};
  tiny.label = "t int32 strided2d";  // what the log names (not part of any key)
  EXPECT_FALSE(cache.builtin(tiny, arch).has_value());
  cache.get(0, {"tiny_user_program"}, [&] { return tiny; });
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("(nvrtc)"), std::string::npos) << lines[1];
  EXPECT_TRUE(lines[1].ends_with(": t int32 strided2d")) << lines[1];
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(loads, 2);

  // get_if_builtin: add's scalar program loads without NVRTC; a program that is not built in
  // gives null, compiles nothing, and is not composed again.
  const kernel_module* scalars = cache.get_if_builtin(0, {"add", scalar_variant(index_width::i32)}, [&] {
    const composed_program p = compose_scalar_program(add, index_width::i32);
    return program_source{p.name, p.source, p.kernels, {}};
  });
  ASSERT_NE(scalars, nullptr);
  EXPECT_EQ(scalars->size(), add.loops.size() * 4);  // values and broadcast elements, either input
  int composed = 0;
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(cache.get_if_builtin(0, {"not_builtin"}, [&] {
      ++composed;
      return tiny;
    }), nullptr);
  EXPECT_EQ(composed, 1);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(cache.stats().builtin_hits, 2u);
}

// A built-in program a process used goes to the disk cache as it is loaded, so the next process
// reads it uninflated from there (a warm start costs what it did before the table).
TEST(BuiltinKernels, UsedBuiltinProgramsAreKeptOnDisk) {
  const int arch = builtin_kernels().architectures().front();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cupp-builtin-disk-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto make = [&] {
    kernel_cache::settings s;
    s.dir = dir;
    s.arch_of = [arch](int) { return arch; };
    s.load = [](const compiled_program& p, int) {
      return std::make_unique<kernel_module>(library{}, std::vector<cudaKernel_t>(p.lowered_names.size()));
    };
    return std::make_unique<kernel_cache>(s);
  };
  const op_spec& add = *find_op("add");
  auto all_loops = [&] {
    const composed_program p = compose_elementwise(add, index_width::i32);
    return program_source{p.name, p.source, p.kernels, {}};
  };
  auto scalars = [&] {
    const composed_program p = compose_scalar_program(add, index_width::i32);
    return program_source{p.name, p.source, p.kernels, {}};
  };
  const auto before = nvrtc_compile_count();
  {
    auto first = make();
    first->get(0, {"add", 1}, all_loops);
    ASSERT_NE(first->get_if_builtin(0, {"add", scalar_variant(index_width::i32)}, scalars), nullptr);
    EXPECT_EQ(first->stats().builtin_hits, 2u);
    EXPECT_EQ(first->stats().disk_hits, 0u);
  }
  auto second = make();
  second->get(0, {"add", 1}, all_loops);
  const kernel_module* m = second->get_if_builtin(0, {"add", scalar_variant(index_width::i32)}, scalars);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->size(), add.loops.size() * 4);
  EXPECT_EQ(second->stats().builtin_hits, 0u);
  EXPECT_EQ(second->stats().disk_hits, 2u);
  EXPECT_EQ(nvrtc_compile_count(), before) << "nothing compiles either way";
  std::filesystem::remove_all(dir);
}

// A table injected in the cache's settings serves a miss (a stand-in binary: loading is
// injected too); with CUPP_BUILTIN_KERNELS=0 the same table is passed over and NVRTC compiles.
TEST(BuiltinKernels, TurnedOffEveryProgramCompiles) {
  const int arch = builtin_kernels().architectures().front();
  const op_spec& add = *find_op("add");
  const program_source p = [&] {
    const composed_program c = compose_elementwise(add, index_width::i32);
    return program_source{c.name, c.source, c.kernels, {}};
  }();
  builtin_entry stand_in;
  stand_in.key = builtin_key(p, arch);
  stand_in.arch = arch;
  stand_in.program.binary = "stand-in binary";
  stand_in.program.lowered_names.assign(p.name_expressions.size(), "k");
  const std::string blob = write_builtin_blob(std::vector<builtin_entry>{stand_in});
  const builtin_table table(bytes_of(blob));
  ASSERT_EQ(table.size(), 1u);
  std::vector<std::string> loaded;
  auto cache_with = [&](bool use_builtin) { return cupp::test::stand_in_cache(use_builtin, arch, &table, loaded); };
  const auto before = nvrtc_compile_count();
  auto on = cache_with(true);
  on->get(0, {"add", 1}, [&] { return p; });
  EXPECT_EQ(nvrtc_compile_count(), before);
  EXPECT_EQ(on->stats().builtin_hits, 1u);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0], "stand-in binary");

  auto off = cache_with(false);  // CUPP_BUILTIN_KERNELS=0
  EXPECT_FALSE(off->builtin(p, arch).has_value());
  off->get(0, {"add", 1}, [&] { return p; });
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(off->stats().builtin_hits, 0u);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_NE(loaded[1], "stand-in binary");
}
#endif

}  // namespace
}  // namespace cupp::detail

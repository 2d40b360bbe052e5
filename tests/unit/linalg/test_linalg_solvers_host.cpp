// linalg part 2 (cupp/linalg_solvers.hpp) without a GPU: NumPy's dtype rule for linalg
// (_commonType) and the shape and argument errors, which every routine raises before any device
// work, as NumPy raises them before LAPACK runs; arrays over a fake device buffer
// (from_device_pointer makes no CUDA call; nothing reads the memory) reach those checks. With
// cupp eval's engine linked, the hand bindings of tools/cupp/eval/linalg_solvers.cpp are checked
// for their argument errors too.
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg_solvers.hpp"
#include "error_of.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"

#if defined(CUPP_HAVE_EVAL_ENGINE)
#include "functions.hpp"
#endif

namespace cupp {
namespace {

using test::error_of;
namespace la = cupp::linalg;

struct fake {
  std::vector<std::byte> bytes = std::vector<std::byte>(1 << 16);
  ndarray wrap(shape_t shape, dtype type = float64) {
    return from_device_pointer(bytes.data(), type, shape, {}, nullptr, /*device=*/0);
  }
};

TEST(LinalgSolversHost, ComputationDtypeIsNumPysCommonType) {
  fake f;
  const auto type_of = [&](std::initializer_list<dtype> types) {
    std::vector<ndarray> arrays;
    for (dtype t : types) arrays.push_back(f.wrap({2, 2}, t));
    std::vector<const ndarray*> ptrs;
    for (const ndarray& a : arrays) ptrs.push_back(&a);
    if (ptrs.size() == 1) return la::detail::linalg_type({ptrs[0]});
    return la::detail::linalg_type({ptrs[0], ptrs[1]});
  };
  EXPECT_EQ(type_of({float32}), float32);
  EXPECT_EQ(type_of({float64}), float64);
  EXPECT_EQ(type_of({complex64}), complex64);
  EXPECT_EQ(type_of({complex128}), complex128);
  // bool, the integers and bfloat16 (not a NumPy inexact type) are computed in float64
  for (dtype t : {bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16})
    EXPECT_EQ(type_of({t}), float64) << t.name();
  // mixed: the widest precision, complex if either is
  EXPECT_EQ(type_of({float32, complex64}), complex64);
  EXPECT_EQ(type_of({float32, float64}), float64);
  EXPECT_EQ(type_of({float32, int32}), float64);
  EXPECT_EQ(type_of({complex64, float64}), complex128);
  EXPECT_EQ(type_of({int8, complex64}), complex128);
  EXPECT_EQ(error_of<TypeError>([&] { type_of({float16}); }), "array type float16 is unsupported in linalg");
  EXPECT_EQ(la::detail::real_of(complex64), float32);
  EXPECT_EQ(la::detail::real_of(complex128), float64);
  EXPECT_EQ(la::detail::complex_of(float32), complex64);
  EXPECT_EQ(la::detail::complex_of(float64), complex128);
}

TEST(LinalgSolversHost, ShapeErrorsAreNumPys) {
  fake f;
  const ndarray v = f.wrap({3}), s = f.wrap({}), rect = f.wrap({2, 3, 4}), sq = f.wrap({3, 3});
  const std::string one_d = "1-dimensional array given. Array must be at least two-dimensional";
  const std::string zero_d = "0-dimensional array given. Array must be at least two-dimensional";
  const std::string square = "Last 2 dimensions of the array must be square";
  EXPECT_EQ(error_of<LinAlgError>([&] { la::solve(v, v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::inv(s); }), zero_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::det(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::slogdet(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::cholesky(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::eigh(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::eig(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::svd(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::qr(v); }), one_d);
  EXPECT_EQ(error_of<LinAlgError>([&] { la::lu_factor(v); }), one_d);  // (SciPy's lu_factor takes (M, N))
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { la::solve(rect, rect); }, [&] { la::inv(rect); }, [&] { la::det(rect); },
           [&] { la::slogdet(rect); }, [&] { la::cholesky(rect); }, [&] { la::eigh(rect); },
           [&] { la::eigvalsh(rect); }, [&] { la::eig(rect); }, [&] { la::eigvals(rect); }}) {
    EXPECT_EQ(error_of<LinAlgError>(call), square);
  }
  // solve's b: NumPy 2's gufunc messages (a 1-D b is a vector, anything else a matrix stack)
  EXPECT_EQ(error_of<ValueError>([&] { la::solve(sq, f.wrap({4})); }),
            "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m)->(m) "
            "(size 4 is different from 3)");
  EXPECT_EQ(error_of<ValueError>([&] { la::solve(sq, f.wrap({4, 2})); }),
            "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n) "
            "(size 4 is different from 3)");
  // lstsq: 2-D a only, b 1-D or 2-D with a's rows
  EXPECT_EQ(error_of<LinAlgError>([&] { la::lstsq(rect, v); }),
            "3-dimensional array given. Array must be two-dimensional");
  EXPECT_EQ(error_of<LinAlgError>([&] { la::lstsq(sq, f.wrap({2, 2, 3})); }),
            "3-dimensional array given. Array must be one or two-dimensional");
  EXPECT_EQ(error_of<LinAlgError>([&] { la::lstsq(sq, f.wrap({4})); }), "Incompatible dimensions");
  // tensorsolve / tensorinv
  EXPECT_EQ(error_of<LinAlgError>([&] { la::tensorsolve(f.wrap({2, 3, 4}), f.wrap({2, 3})); }),
            "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  EXPECT_EQ(error_of<ValueError>([&] { la::tensorinv(sq, 0); }), "Invalid ind argument.");
  EXPECT_EQ(error_of<ValueError>([&] { la::tensorinv(sq, -1); }), "Invalid ind argument.");
  // float16 is refused before anything runs
  EXPECT_EQ(error_of<TypeError>([&] { la::inv(f.wrap({3, 3}, float16)); }),
            "array type float16 is unsupported in linalg");
  EXPECT_EQ(error_of<TypeError>([&] { la::cholesky(f.wrap({3, 3}, float16)); }),
            "array type float16 is unsupported in linalg");
}

TEST(LinalgSolversHost, KeywordErrorsAreNumPysAndSciPys) {
  fake f;
  const ndarray sq = f.wrap({3, 3});
  EXPECT_EQ(error_of<ValueError>([&] { la::eigh(sq, {.UPLO = "X"}); }), "UPLO argument must be 'L' or 'U'");
  EXPECT_EQ(error_of<ValueError>([&] { la::eigvalsh(sq, {.UPLO = "LU"}); }), "UPLO argument must be 'L' or 'U'");
  // (NumPy reads UPLO.upper(): 'l' and 'u' are accepted, as cupp accepts them)
  EXPECT_EQ(error_of<ValueError>([&] { la::qr(sq, {.mode = "full"}); }), "Unrecognized mode 'full'");
  EXPECT_EQ(error_of<ValueError>([&] { la::pinv(sq, {.rcond = 0.1, .rtol = 0.1}); }),
            "`rtol` and `rcond` can't be both set.");
  EXPECT_EQ(error_of<ValueError>([&] { la::solve_triangular(sq, sq, {.trans = 3}); }),
            "solve_triangular: trans must be 0, 1 or 2 (N, T, C)");
  EXPECT_EQ(error_of<ValueError>([&] { la::lu_solve({sq, f.wrap({3}, int32)}, sq, {.trans = -1}); }),
            "lu_solve: trans must be 0, 1 or 2");
  EXPECT_THROW(la::lu_solve({sq, f.wrap({3}, int32)}, f.wrap({4, 2})), ValueError);  // rows differ
  EXPECT_THROW(la::cho_solve({sq, false}, f.wrap({4})), ValueError);
}

TEST(LinalgSolversHost, NormArgumentErrorsAreNumPys) {
  fake f;
  const ndarray x = f.wrap({2, 3, 4});
  EXPECT_EQ(error_of<ValueError>([&] { la::norm(x, {.axis = std::vector<int>{0, 1, 2}}); }),
            "Improper number of dimensions to norm.");
  EXPECT_EQ(error_of<ValueError>([&] { la::norm(x, {.axis = std::vector<int>{1, -2}}); }), "Duplicate axes given.");
  EXPECT_EQ(error_of<AxisError>([&] { la::norm(x, {.axis = std::vector<int>{3}}); }),
            "axis 3 is out of bounds for array of dimension 3");
  EXPECT_EQ(error_of<ValueError>([&] { la::norm(x, {.ord = "fro", .axis = std::vector<int>{0}}); }),
            "Invalid norm order 'fro' for vectors");
  EXPECT_EQ(error_of<ValueError>([&] { la::norm(x, {.ord = 3, .axis = std::vector<int>{0, 1}}); }),
            "Invalid norm order for matrices.");
  EXPECT_EQ(error_of<ValueError>([&] { la::norm(x, {.ord = "max", .axis = std::vector<int>{0, 1}}); }),
            "Invalid norm order for matrices.");
  EXPECT_THROW(la::matrix_norm(f.wrap({4})), AxisError);  // NumPy: axis -2 is out of bounds
  EXPECT_EQ(error_of<LinAlgError>([&] { la::cond(f.wrap({0, 0})); }), "cond is not defined on empty arrays");
  // norm_ord: numbers and names
  EXPECT_FALSE(la::norm_ord(2).is_name());
  EXPECT_FALSE(la::norm_ord(-1.5).is_name());
  EXPECT_TRUE(la::norm_ord("nuc").is_name());
  EXPECT_TRUE(la::norm_ord(std::string("fro")).is_name());
  EXPECT_EQ(std::get<double>(la::norm_ord(-2).value), -2.0);
}

#if defined(CUPP_HAVE_EVAL_ENGINE)
// cupp eval's hand bindings: their argument errors come before the routine runs.
TEST(LinalgSolversHost, EvalHandBindingsCheckTheirArguments) {
  fake f;
  const eval::function_table t = eval::function_table::builtins();
  for (const char* name : {"linalg.qr", "linalg.norm", "linalg.matrix_norm", "linalg.vector_norm", "linalg.cho_factor",
                           "linalg.lu_solve", "linalg.cho_solve", "linalg.solve", "linalg.svd", "linalg.lu",
                           "linalg.solve_triangular", "linalg.eigh", "linalg.lstsq", "linalg.cond"})
    EXPECT_NE(t.find(name), nullptr) << name;
  const auto call = [&](const char* name, std::vector<eval::value> args, std::vector<eval::keyword_value> kw = {}) {
    (*t.find(name))(args, kw);
  };
  const ndarray sq = f.wrap({3, 3}), b = f.wrap({3});
  EXPECT_EQ(error_of<TypeError>([&] { call("linalg.lu_solve", {eval::value(sq), eval::value(b)}); }),
            "linalg.lu_solve(): 'lu_and_piv' must be a tuple of two items, not 'ndarray'");
  EXPECT_EQ(error_of<TypeError>([&] {
              call("linalg.lu_solve", {eval::value(eval::tuple_value{eval::value(sq)}), eval::value(b)});
            }),
            "linalg.lu_solve(): 'lu_and_piv' must be a tuple of two items, not 'tuple'");
  EXPECT_EQ(error_of<ValueError>([&] {
              call("linalg.lu_solve",
                   {eval::value(eval::tuple_value{eval::value(sq), eval::value(f.wrap({3}, int32))}), eval::value(b)},
                   {{"trans", eval::value(std::string("X"))}});
            }),
            "lu_solve: trans must be 0, 1, 2 or 'N', 'T', 'C', not 'X'");
  EXPECT_EQ(error_of<TypeError>([&] {
              call("linalg.cho_solve",
                   {eval::value(eval::tuple_value{eval::value(sq), eval::value(sq)}), eval::value(b)});
            }),
            "linalg.cho_solve(): 'lower' must be True or False, not 'ndarray'");
  EXPECT_EQ(error_of<ValueError>([&] {
              call("linalg.vector_norm", {eval::value(b)}, {{"ord", eval::value(std::string("fro"))}});
            }),
            "Invalid norm order 'fro' for vectors");
  EXPECT_EQ(error_of<ValueError>([&] { call("linalg.qr", {eval::value(sq), eval::value(std::string("x"))}); }),
            "Unrecognized mode 'x'");
  // keyword-only parameters of the Array API's norms
  EXPECT_THROW(call("linalg.matrix_norm", {eval::value(sq), eval::value(eval::py_scalar::boolean(true))}), TypeError);
  EXPECT_THROW(call("linalg.norm", {eval::value(sq)}, {{"axes", eval::value(eval::py_scalar::integer(0))}}),
               TypeError);
}
#endif

// The solvers' one-launch checks (solver_checks.cuh) compile for every computation dtype.
TEST(LinalgSolversHost, SolverChecksCompileForEveryDtype) {
  for (dtype t : {dtype(float32), dtype(float64), dtype(complex64), dtype(complex128)}) {
    const cupp::detail::routine_program p = la::detail::solver_checks_program(t);
    const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
         .extra_headers = p.headers});
    EXPECT_EQ(out.lowered_names.size(), 8u) << t.name();
    EXPECT_FALSE(out.binary.empty()) << t.name();
    // the module's function(i) is kernels[i]: solver_common.cpp launches them by these indices
    ASSERT_EQ(p.kernels.size(), 8u);
    EXPECT_EQ(p.kernels[0], "cupp_linalg_lu_suspect");
    EXPECT_EQ(p.kernels[2], "cupp_linalg_any_nan");
    EXPECT_EQ(p.kernels[3], "cupp_linalg_nan_scrub");
    EXPECT_EQ(p.kernels[4], "cupp_linalg_transpose_copy");
    EXPECT_EQ(p.kernels[5], "cupp_linalg_copy_scrub");
    EXPECT_EQ(p.kernels[6], "cupp_linalg_zero_triangle");
    EXPECT_EQ(p.kernels[7], "cupp_linalg_permuted_identity");
  }
  EXPECT_NE(la::detail::solver_checks_program(complex64).source.find("CUPP_LINALG_COMPLEX"), std::string::npos);
  EXPECT_EQ(la::detail::solver_checks_program(float64).source.find("CUPP_LINALG_COMPLEX"), std::string::npos);
}

// The blocked LU's panel kernel (lu_blocked.cuh) compiles for every computation dtype.
TEST(LinalgSolversHost, BlockedLuCompilesForEveryDtype) {
  for (dtype t : {dtype(float32), dtype(float64), dtype(complex64), dtype(complex128)}) {
    const cupp::detail::routine_program p = la::detail::lu_blocked_program(t);
    const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
         .extra_headers = p.headers});
    EXPECT_EQ(out.lowered_names.size(), 1u) << t.name();
    EXPECT_FALSE(out.binary.empty()) << t.name();
    EXPECT_NE(p.source.find("CUPP_LINALG_NB " + std::to_string(la::detail::lu_blocked_nb(t))), std::string::npos);
  }
}

// The LU path by size (lu_core.hpp): the blocked LU for square stacks up to 512 (inv's below 128;
// else cuBLAS's batched LU up to 256 and Xgetrf per matrix on side streams above), Xgetrf alone
// for one matrix or a rectangular stack; CUPP_LINALG_LU's values override it where they can apply.
TEST(LinalgSolversHost, LuPathFollowsSizeAndOverride) {
  using la::detail::choose_lu_path;
  using la::detail::lu_path;
  la::detail::set_path_override("CUPP_LINALG_LU", "auto");
  const bool blocked = la::detail::blocked_lu_by_default;
  EXPECT_EQ(choose_lu_path(1000, 64, 64, false), blocked ? lu_path::blocked : lu_path::batched);
  EXPECT_EQ(choose_lu_path(100, 256, 256, false), blocked ? lu_path::blocked : lu_path::batched);
  EXPECT_EQ(choose_lu_path(20, 512, 512, false), blocked ? lu_path::blocked : lu_path::streams);
  EXPECT_EQ(choose_lu_path(2, 1024, 1024, false), lu_path::streams);
  EXPECT_EQ(choose_lu_path(1, 4096, 4096, false), lu_path::loop);
  EXPECT_EQ(choose_lu_path(1, 8, 8, false), lu_path::loop);
  EXPECT_EQ(choose_lu_path(10, 8, 6, false), lu_path::loop);
  EXPECT_EQ(choose_lu_path(10, 8, 8, true), lu_path::loop);  // complex lu / lu_factor: Xgetrf's pivots
  la::detail::set_path_override("CUPP_LINALG_LU", "streams");
  EXPECT_EQ(choose_lu_path(1000, 64, 64, false), lu_path::streams);
  EXPECT_EQ(choose_lu_path(1, 64, 64, false), lu_path::loop);
  la::detail::set_path_override("CUPP_LINALG_LU", "batched");
  EXPECT_EQ(choose_lu_path(20, 512, 512, false), lu_path::batched);
  EXPECT_EQ(choose_lu_path(20, 1024, 1024, false), lu_path::streams);  // beyond cuBLAS's batched range: auto
  EXPECT_EQ(choose_lu_path(20, 64, 64, true), lu_path::loop);
  la::detail::set_path_override("CUPP_LINALG_LU", "blocked");
  EXPECT_EQ(choose_lu_path(20, 512, 512, false), lu_path::blocked);
  EXPECT_EQ(choose_lu_path(1000, 64, 64, false), lu_path::blocked);
  EXPECT_EQ(choose_lu_path(1, 64, 64, false), lu_path::loop);          // one matrix: Xgetrf
  EXPECT_EQ(choose_lu_path(20, 64, 64, true), lu_path::loop);          // complex lu / lu_factor
  EXPECT_EQ(choose_lu_path(20, 1024, 1024, false), lu_path::streams);  // beyond its range: auto
  using la::detail::inv_form;
  const la::detail::i64 from = la::detail::inv_permuted_min_n, most = la::detail::permuted_identity_max_n;
  la::detail::set_path_override("CUPP_LINALG_INV", "getri");
  EXPECT_EQ(la::detail::inv_form_choice(256), inv_form::getri);
  la::detail::set_path_override("CUPP_LINALG_INV", "getrs");
  EXPECT_EQ(la::detail::inv_form_choice(64), inv_form::getrs);
  la::detail::set_path_override("CUPP_LINALG_INV", "permuted");
  EXPECT_EQ(la::detail::inv_form_choice(64), inv_form::permuted);
  EXPECT_EQ(la::detail::inv_form_choice(most + 1), inv_form::getri);  // beyond the kernel's range: auto
  la::detail::set_path_override("CUPP_LINALG_INV", "auto");
  EXPECT_EQ(la::detail::inv_form_choice(from - 1), inv_form::getri);
  EXPECT_EQ(la::detail::inv_form_choice(from), inv_form::permuted);
  EXPECT_EQ(la::detail::inv_form_choice(most), inv_form::permuted);
  EXPECT_EQ(la::detail::inv_form_choice(most + 1), inv_form::getri);
  la::detail::set_path_override("CUPP_LINALG_LU", "loop");
  EXPECT_EQ(choose_lu_path(1000, 64, 64, false), lu_path::loop);
  la::detail::set_path_override("CUPP_LINALG_LU", "auto");
  EXPECT_EQ(la::detail::path_choice("CUPP_LINALG_LU"), "");
  EXPECT_GE(la::detail::lanes_for(100), 1);
  EXPECT_LE(la::detail::lanes_for(100), 64);
  EXPECT_EQ(la::detail::lanes_for(1), 1);
}

}  // namespace
}  // namespace cupp

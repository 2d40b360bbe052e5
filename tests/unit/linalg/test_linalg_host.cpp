// The linalg module's products without a GPU (tests/unit/<module>/ is globbed with the unit tests):
// their errors come before any device work, as NumPy's do, so arrays over a fake device buffer
// (from_device_pointer makes no CUDA call; nothing reads the memory) reach them; the generic
// integer/bool matmul kernel (linalg/device/) compiles with NVRTC for every dtype it serves.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "error_of.hpp"
#include "einsum_plan.hpp"
#include "gemm.hpp"
#include "linalg_device_headers.hpp"

namespace cupp {
namespace {

using test::error_of;

struct fake {
  std::vector<std::byte> bytes = std::vector<std::byte>(1 << 16);
  ndarray wrap(shape_t shape, dtype type = float64) {
    return from_device_pointer(bytes.data(), type, shape, {}, nullptr, /*device=*/0);
  }
};

TEST(LinalgHost, MatmulErrorsAreNumPys) {
  fake f;
  const ndarray a = f.wrap({2, 3}), b = f.wrap({4, 5}), s = f.wrap({});
  EXPECT_EQ(error_of<ValueError>([&] { matmul(a, b); }),
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            "(n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)");
  EXPECT_EQ(error_of<ValueError>([&] { matmul(s, b); }),
            "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature "
            "(n?,k),(k,m?)->(n?,m?) requires 1)");
  EXPECT_EQ(error_of<ValueError>([&] { matmul(a, s); }),
            "matmul: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature "
            "(n?,k),(k,m?)->(n?,m?) requires 1)");
  // 1-D promotion: a vector of the wrong length is operand 1's core dimension 0 too.
  EXPECT_THROW(matmul(a, f.wrap({4})), ValueError);
  EXPECT_EQ(error_of<TypeError>([&] { matmul(a, f.wrap({3, 2}), {.dtype = int32}); }),
            "Cannot cast ufunc 'matmul' input 0 from dtype('float64') to dtype('int32') with casting rule "
            "'same_kind'");
  EXPECT_EQ(error_of<TypeError>([&] { matmul(a, f.wrap({3, 2}), {.out = f.wrap({2, 2}, int32)}); }),
            "Cannot cast ufunc 'matmul' output from dtype('float64') to dtype('int32') with casting rule "
            "'same_kind'");
  EXPECT_EQ(error_of<ValueError>([&] { matmul(a, f.wrap({3, 2}), {.out = f.wrap({2, 3})}); }),
            "matmul: Output operand 0 has a mismatch in its core dimension 1, with gufunc signature "
            "(n?,k),(k,m?)->(n?,m?) (size 3 is different from 2)");
  EXPECT_THROW(matmul(f.wrap({2, 2, 3}), f.wrap({3, 3, 2})), ValueError);  // batch 2 vs 3
  EXPECT_THROW(matmul(f.wrap({2, 2, 3}), f.wrap({3, 2}), {.out = f.wrap({3, 2, 2})}), ValueError);
}

TEST(LinalgHost, GufuncSiblingsNameTheirSignatures) {
  fake f;
  EXPECT_EQ(error_of<ValueError>([&] { matvec(f.wrap({2, 3}), f.wrap({4})); }),
            "matvec: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            "(m,n),(n)->(m) (size 4 is different from 3)");
  EXPECT_EQ(error_of<ValueError>([&] { matvec(f.wrap({3}), f.wrap({3})); }),
            "matvec: Input operand 0 does not have enough dimensions (has 1, gufunc core with signature "
            "(m,n),(n)->(m) requires 2)");
  EXPECT_EQ(error_of<ValueError>([&] { vecmat(f.wrap({4}), f.wrap({3, 2})); }),
            "vecmat: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            "(n),(n,m)->(m) (size 3 is different from 4)");
  EXPECT_EQ(error_of<ValueError>([&] { vecdot(f.wrap({2, 3}), f.wrap({2, 4})); }),
            "vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            "(n),(n)->() (size 4 is different from 3)");
  EXPECT_THROW(vecdot(f.wrap({2, 3}), f.wrap({2, 3}), {.axis = 2}), AxisError);
}

TEST(LinalgHost, ProductErrorsAreNumPys) {
  fake f;
  EXPECT_EQ(error_of<ValueError>([&] { dot(f.wrap({2, 3}), f.wrap({4})); }),
            "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)");
  EXPECT_EQ(error_of<ValueError>([&] { dot(f.wrap({2, 3}), f.wrap({2, 4, 5})); }),
            "shapes (2,3) and (2,4,5) not aligned: 3 (dim 1) != 4 (dim 1)");
  EXPECT_EQ(error_of<ValueError>([&] { dot(f.wrap({2, 3}), f.wrap({3, 2}), f.wrap({2, 2}, float32)); }),
            "output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
  EXPECT_EQ(error_of<ValueError>([&] { inner(f.wrap({2, 3}), f.wrap({2})); }),
            "shapes (2,3) and (2,) not aligned: 3 (dim 1) != 2 (dim 0)");
  EXPECT_EQ(error_of<ValueError>([&] { vdot(f.wrap({2, 3}), f.wrap({5})); }), "vectors have different lengths");
  EXPECT_EQ(error_of<ValueError>([&] { tensordot(f.wrap({2, 3}), f.wrap({2, 3}), 1); }), "shape-mismatch for sum");
  const int ax[] = {5}, bx[] = {0};
  EXPECT_EQ(error_of<IndexError>([&] { tensordot(f.wrap({2, 3}), f.wrap({2, 3}), ax, bx); }),
            "tuple index out of range");
  EXPECT_EQ(error_of<ValueError>([&] { cross(f.wrap({4}), f.wrap({3})); }),
            "incompatible dimensions for cross product\n(dimension must be 3)");
  EXPECT_THROW(cross(f.wrap({2}), f.wrap({3})), ValueError);  // 2-vectors: gone in NumPy 2.5
  EXPECT_THROW(cross(f.wrap({2, 3}), f.wrap({2, 3}), {.axisc = 2}), AxisError);
}

TEST(LinalgHost, LinalgNamespaceErrorsAreNumPys) {
  fake f;
  EXPECT_EQ(error_of<ValueError>([&] { linalg::outer(f.wrap({2, 3}), f.wrap({3})); }),
            "Input arrays must be one-dimensional, but they are x1.ndim=2 and x2.ndim=1.");
  EXPECT_EQ(error_of<ValueError>([&] { linalg::cross(f.wrap({2}), f.wrap({3})); }),
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 3 dimensional instead.");
  EXPECT_EQ(error_of<AxisError>([&] { linalg::cross(f.wrap({3}), f.wrap({3}), 1); }),
            "axis 1 is out of bounds for array of dimension 1");
  EXPECT_EQ(error_of<LinAlgError>([&] { linalg::matrix_power(f.wrap({3}), 2); }),
            "1-dimensional array given. Array must be at least two-dimensional");
  EXPECT_EQ(error_of<LinAlgError>([&] { linalg::matrix_power(f.wrap({2, 3}), 2); }),
            "Last 2 dimensions of the array must be square");
  EXPECT_THROW(linalg::matrix_power(f.wrap({2, 2}), -1), ValueError);  // needs linalg.inv (docs/deviations.md)
  EXPECT_EQ(error_of<ValueError>([&] { linalg::multi_dot({f.wrap({2, 2})}); }), "Expecting at least two arrays.");
  EXPECT_EQ(error_of<LinAlgError>([&] { linalg::multi_dot({f.wrap({2, 2}), f.wrap({2, 2, 2}), f.wrap({2})}); }),
            "3-dimensional array given. Array must be two-dimensional");
  EXPECT_EQ(error_of<ValueError>([&] { linalg::diagonal(f.wrap({3})); }),
            "diag requires an array of at least two dimensions");
  // Views need no device: the last two axes.
  const ndarray d = linalg::diagonal(f.wrap({2, 3, 4}), 1);
  EXPECT_EQ(shape_t(d.shape().begin(), d.shape().end()), (shape_t{2, 3}));
  const ndarray t = linalg::matrix_transpose(f.wrap({2, 3, 4}));
  EXPECT_EQ(shape_t(t.shape().begin(), t.shape().end()), (shape_t{2, 4, 3}));
}

TEST(LinalgHost, InfoShowsLibrariesAndTf32) {
  bool tf32 = false, lt = false;
  for (const module_info_row& r : linalg::info()) {
    tf32 |= r.key == "float32 products" && r.value.find("CUPP_TF32") != std::string::npos;
    lt |= r.key == "cuBLASLt";
  }
  EXPECT_TRUE(tf32);
  EXPECT_TRUE(lt);
}

// The generic kernel (bool and the integers cuBLAS has no exact path for, and the small float
// products of CUPP_LINALG_GEMM=kernel) compiles for each dtype.
TEST(LinalgHost, GenericMatmulKernelCompilesForEveryIntegerDtype) {
  bool found = false;
  for (const cupp::detail::embedded_header& h : linalg::detail::embedded_headers())
    found |= h.name == "cupp/linalg/matmul_generic.cuh";
  EXPECT_TRUE(found);
  for (dtype t : {dtype(bool_), dtype(int8), dtype(uint8), dtype(int16), dtype(uint16), dtype(int32), dtype(uint32),
                  dtype(int64), dtype(uint64), dtype(float32), dtype(float64)}) {
    const cupp::detail::routine_program p = linalg::detail::generic_matmul_program(t);
    const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
         .extra_headers = p.headers});
    EXPECT_EQ(out.lowered_names.size(), 1u) << t.name();
    EXPECT_FALSE(out.binary.empty()) << t.name();
  }
  EXPECT_NE(linalg::detail::generic_matmul_program(float32).source.find("#define CUPP_LINALG_ACC float\n"),
            std::string::npos);
  EXPECT_THROW(linalg::detail::generic_matmul_program(complex64), TypeError);
  EXPECT_THROW(linalg::detail::generic_matmul_program(float16), TypeError);
}

}  // namespace
}  // namespace cupp

namespace cupp {
namespace {

// einsum parses its subscripts and orders its contractions before any device work.
TEST(LinalgHost, EinsumErrorsAreNumPys) {
  fake f;
  const ndarray a = f.wrap({2, 3}), b = f.wrap({3, 4});
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ij,jk", {a}); }),
            "fewer operands provided to einstein sum function than specified in the subscripts string");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ij", {a, b}); }),
            "more operands provided to einstein sum function than specified in the subscripts string");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("i$j", {a}); }),
            "invalid subscript '$' in einstein sum subscripts string, subscripts must be letters");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ijk", {a}); }),
            "einstein sum subscripts string contains too many subscripts for operand 0");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("i", {a}); }),
            "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to "
            "broadcast the extra dimensions.");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("i.j", {a}); }),
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand 0");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ij->k", {a}); }),
            "einstein sum subscripts string included output subscript 'k' which never appeared in an input");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ij->ii", {a}); }),
            "einstein sum subscripts string includes output subscript 'i' multiple times");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ij...->ij", {f.wrap({2, 3, 4})}); }),
            "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to "
            "broadcast the extra dimensions.");
  EXPECT_EQ(test::error_of<ValueError>([&] { einsum("ii->i", {a}); }),
            "dimensions in single operand for collapsing index 'i' don't match (2 != 3)");
  EXPECT_THROW(einsum("ij,jk", {a, f.wrap({4, 5})}), ValueError);  // j: 3 against 4
  EXPECT_EQ(test::error_of<TypeError>([&] { einsum("ij,jk", {a, b}, {.dtype = float32}); }),
            "Cannot cast array data from dtype('float64') to dtype('float32') according to the rule 'safe'");
  EXPECT_THROW(einsum_optimize::parse("fastest"), TypeError);
  const ndarray ops[] = {a, b};
  EXPECT_THROW(einsum_path("ij,jk", ops, einsum_optimize::given({{0, 3}})), ValueError);
  EXPECT_THROW(einsum_path("ij,jk", ops, einsum_optimize::given({{0}})), ValueError);  // two operands left
}

TEST(LinalgHost, EinsumPathOrdersTheContractions) {
  fake f;
  const ndarray chain[] = {f.wrap({10, 100}), f.wrap({100, 5}), f.wrap({5, 50})};
  using path = std::vector<std::vector<int>>;
  EXPECT_EQ(einsum_path("ij,jk,kl->il", chain), (path{{0, 1}, {0, 1}}));
  EXPECT_EQ(einsum_path("ij,jk,kl->il", chain, einsum_optimize::optimal()), (path{{0, 1}, {0, 1}}));
  // The small pair is b and c here: (jk, kl) first, then a with the result.
  const ndarray other[] = {f.wrap({10, 100}), f.wrap({100, 100}), f.wrap({100, 1})};
  EXPECT_EQ(einsum_path("ij,jk,kl->il", other, einsum_optimize::optimal()), (path{{1, 2}, {0, 1}}));
  EXPECT_EQ(einsum_path("ij,jk,kl->il", other), (path{{1, 2}, {0, 1}}));
  // No intermediate fits a memory limit of 1 element: everything in one step, as NumPy's.
  EXPECT_EQ(einsum_path("ij,jk,kl->il", chain, einsum_optimize::greedy(1)), (path{{0, 1, 2}}));
  // optimize=False (and two operands): one step of every operand, as NumPy's einsum_path says.
  EXPECT_EQ(einsum_path("ij,jk,kl->il", chain, false), (path{{0, 1, 2}}));
}

// NumPy's own einsum_path on random 3- to 5-operand contractions (made with NumPy 1.24's
// numpy/core/einsumfunc.py, whose _greedy_path and _optimal_path NumPy 2.5 keeps): the same pairs.
TEST(LinalgHost, EinsumPathIsNumPysPath) {
  fake f;
  using path = std::vector<std::vector<int>>;
  struct row {
    const char* subscripts;
    std::vector<ndarray> operands;
    bool optimal;
    path want;
  };
  const row rows[] = {
      {"h,ge,fga,gea,e->", {f.wrap({40}), f.wrap({3, 2}), f.wrap({8, 3, 3}), f.wrap({3, 2, 3}), f.wrap({2})}, false, path{{2, 3}, {1, 3}, {1, 2}, {0, 1}}},
      {"h,ge,fga,gea,e->", {f.wrap({40}), f.wrap({3, 2}), f.wrap({8, 3, 3}), f.wrap({3, 2, 3}), f.wrap({2})}, true, path{{1, 4}, {2, 3}, {1, 2}, {0, 1}}},
      {"g,bg,bhg->g", {f.wrap({3}), f.wrap({3, 3}), f.wrap({3, 2, 3})}, false, path{{1, 2}, {0, 1}}},
      {"g,bg,bhg->g", {f.wrap({3}), f.wrap({3, 3}), f.wrap({3, 2, 3})}, true, path{{1, 2}, {0, 1}}},
      {"hgb,hc,hbc->c", {f.wrap({13, 5, 5}), f.wrap({13, 13}), f.wrap({13, 5, 13})}, false, path{{0, 2}, {0, 1}}},
      {"hgb,hc,hbc->c", {f.wrap({13, 5, 5}), f.wrap({13, 13}), f.wrap({13, 5, 13})}, true, path{{0, 2}, {0, 1}}},
      {"d,f,fad->d", {f.wrap({8}), f.wrap({8}), f.wrap({8, 13, 8})}, false, path{{1, 2}, {0, 1}}},
      {"d,f,fad->d", {f.wrap({8}), f.wrap({8}), f.wrap({8, 13, 8})}, true, path{{1, 2}, {0, 1}}},
      {"cd,d,ce,dc,e->cd", {f.wrap({3, 8}), f.wrap({8}), f.wrap({3, 5}), f.wrap({8, 3}), f.wrap({5})}, false, path{{0, 3}, {1, 2}, {0, 1}, {0, 1}}},
      {"cd,d,ce,dc,e->cd", {f.wrap({3, 8}), f.wrap({8}), f.wrap({3, 5}), f.wrap({8, 3}), f.wrap({5})}, true, path{{0, 1}, {0, 2}, {0, 1}, {0, 1}}},
      {"ehf,fae,ahe,h->ef", {f.wrap({3, 2, 40}), f.wrap({40, 8, 3}), f.wrap({8, 2, 3}), f.wrap({2})}, false, path{{1, 2}, {0, 2}, {0, 1}}},
      {"ehf,fae,ahe,h->ef", {f.wrap({3, 2, 40}), f.wrap({40, 8, 3}), f.wrap({8, 2, 3}), f.wrap({2})}, true, path{{2, 3}, {1, 2}, {0, 1}}},
      {"cd,cdh,hdc,dh->c", {f.wrap({3, 2}), f.wrap({3, 2, 8}), f.wrap({8, 2, 3}), f.wrap({2, 8})}, false, path{{1, 2}, {1, 2}, {0, 1}}},
      {"cd,cdh,hdc,dh->c", {f.wrap({3, 2}), f.wrap({3, 2, 8}), f.wrap({8, 2, 3}), f.wrap({2, 8})}, true, path{{1, 2}, {1, 2}, {0, 1}}},
      {"d,bcd,bd->c", {f.wrap({13}), f.wrap({13, 8, 13}), f.wrap({13, 13})}, false, path{{1, 2}, {0, 1}}},
      {"d,bcd,bd->c", {f.wrap({13}), f.wrap({13, 8, 13}), f.wrap({13, 13})}, true, path{{0, 2}, {0, 1}}},
      {"ahe,ade,d,ae->ad", {f.wrap({5, 5, 40}), f.wrap({5, 8, 40}), f.wrap({8}), f.wrap({5, 40})}, false, path{{0, 3}, {0, 2}, {0, 1}}},
      {"ahe,ade,d,ae->ad", {f.wrap({5, 5, 40}), f.wrap({5, 8, 40}), f.wrap({8}), f.wrap({5, 40})}, true, path{{0, 3}, {0, 2}, {0, 1}}},
      {"cae,f,dbf,c->", {f.wrap({13, 40, 13}), f.wrap({13}), f.wrap({8, 5, 13}), f.wrap({13})}, false, path{{0, 3}, {0, 1}, {0, 1}}},
      {"cae,f,dbf,c->", {f.wrap({13, 40, 13}), f.wrap({13}), f.wrap({8, 5, 13}), f.wrap({13})}, true, path{{0, 3}, {0, 1}, {0, 1}}},
      {"ag,fdb,e->a", {f.wrap({3, 13}), f.wrap({2, 3, 8}), f.wrap({8})}, false, path{{0, 1}, {0, 1}}},
      {"ag,fdb,e->a", {f.wrap({3, 13}), f.wrap({2, 3, 8}), f.wrap({8})}, true, path{{1, 2}, {0, 1}}},
      {"dch,ga,ch,ag->", {f.wrap({5, 5, 13}), f.wrap({13, 2}), f.wrap({5, 13}), f.wrap({2, 13})}, false, path{{0, 2}, {0, 1}, {0, 1}}},
      {"dch,ga,ch,ag->", {f.wrap({5, 5, 13}), f.wrap({13, 2}), f.wrap({5, 13}), f.wrap({2, 13})}, true, path{{0, 2}, {0, 1}, {0, 1}}},
  };
  for (const row& r : rows)
    EXPECT_EQ(einsum_path(r.subscripts, r.operands, r.optimal ? einsum_optimize::optimal() : einsum_optimize::greedy()),
              r.want)
        << r.subscripts << (r.optimal ? " optimal" : " greedy");
}

}  // namespace
}  // namespace cupp

namespace cupp {
namespace {

using linalg::detail::einsum_contractions;
using linalg::detail::einsum_label_string;
using linalg::detail::einsum_pair_plan;
using linalg::detail::einsum_parse;

// The labels einsum_parse gives: letters, '...' as the digits 1.. from the right, NumPy's implicit
// output (the broadcast dimensions, then the letters that appear once, in ASCII order).
TEST(LinalgHost, EinsumParsesAsNumPy) {
  fake f;
  const ndarray m[] = {f.wrap({3, 4}), f.wrap({4, 5})};
  auto out = [](std::string_view s, std::span<const ndarray> ops) {
    return einsum_label_string(einsum_parse(s, ops).output);
  };
  EXPECT_EQ(out("ij,jk", m), "ik");
  const ndarray mt[] = {f.wrap({4, 3}), f.wrap({5, 4})};
  EXPECT_EQ(out("ji,kj", mt), "ik");  // ASCII order, not the order of appearance
  EXPECT_EQ(out("ij,jk->ki", m), "ki");
  const ndarray upper[] = {f.wrap({2, 3}), f.wrap({3, 4})};
  EXPECT_EQ(out("bA,Ac", upper), "bc");
  EXPECT_EQ(out("Ab,bC", upper), "AC");  // upper case sorts first
  const ndarray sq[] = {f.wrap({4, 4})};
  EXPECT_EQ(out("ii", sq), "");
  EXPECT_EQ(out("ii->i", sq), "i");
  const ndarray e[] = {f.wrap({2, 7, 3, 4}), f.wrap({4, 5})};
  const auto p = einsum_parse("...ij,jk", e);
  EXPECT_EQ(einsum_label_string(p.inputs[0]), "21ij");
  EXPECT_EQ(einsum_label_string(p.inputs[1]), "jk");
  EXPECT_EQ(einsum_label_string(p.output), "21ik");
  EXPECT_EQ(p.sizes.at(-2), 2);
  EXPECT_EQ(p.sizes.at('k'), 5);
  EXPECT_EQ(einsum_label_string(einsum_parse("...ij,...jk->k...i", e).output), "k21i");
  // ' ' is ignored; a length-1 label broadcasts against the other operands' length.
  const ndarray b[] = {f.wrap({3, 1}), f.wrap({4})};
  const auto q = einsum_parse("i j , j -> i", b);
  EXPECT_EQ(q.sizes.at('j'), 4);
  EXPECT_EQ(einsum_label_string(q.output), "i");
}

// Each pairwise contraction keeps what the output or any later term needs.
TEST(LinalgHost, EinsumPairPlanKeepsWhatLaterTermsNeed) {
  const auto plan = einsum_pair_plan({'b', 'i', 'j'}, {'b', 'j', 'k'}, {'b', 'i', 'k'});
  EXPECT_EQ(einsum_label_string(plan.batch), "b");
  EXPECT_EQ(einsum_label_string(plan.con), "j");
  EXPECT_EQ(einsum_label_string(plan.fx), "i");
  EXPECT_EQ(einsum_label_string(plan.fy), "k");
  EXPECT_EQ(einsum_label_string(plan.result), "bik");
  // A repeated label is one diagonal; a label no one else needs is summed before the product.
  const auto d = einsum_pair_plan({'i', 'i', 'j', 'q'}, {'j', 'k'}, {'i', 'k'});
  EXPECT_EQ(einsum_label_string(d.x_kept), "ij");
  EXPECT_EQ(einsum_label_string(d.result), "ik");
  // A label shared by both and kept is a batch label, not summed: 'i,i->i'.
  EXPECT_EQ(einsum_label_string(einsum_pair_plan({'i'}, {'i'}, {'i'}).batch), "i");
  EXPECT_EQ(einsum_label_string(einsum_pair_plan({'i'}, {'i'}, {}).con), "i");
}

// The contractions einsum runs: with optimize=False a three-operand step goes left to right and
// its first contraction must keep the labels of the third operand (it summed k away before).
TEST(LinalgHost, EinsumContractionsFollowThePath) {
  fake f;
  const ndarray chain[] = {f.wrap({3, 4}), f.wrap({4, 5}), f.wrap({5, 2})};
  using steps = std::vector<std::string>;
  EXPECT_EQ(einsum_contractions("ij,jk,kl->il", chain, false), (steps{"ij,jk->ik", "ik,kl->il"}));
  EXPECT_EQ(einsum_contractions("ij,jk,kl->il", chain, true), (steps{"jk,kl->jl", "ij,jl->il"}));
  EXPECT_EQ(einsum_contractions("ij,jk,kl->il", chain, einsum_optimize::optimal()), (steps{"jk,kl->jl", "ij,jl->il"}));
  EXPECT_EQ(einsum_contractions("ij,jk,kl->il", chain, einsum_optimize::given({{0, 2}, {0, 1}})),
            (steps{"ij,kl->ijkl", "jk,ijkl->il"}));
  // One label in all three operands: not summed until the last contraction.
  const ndarray vec[] = {f.wrap({5}), f.wrap({5}), f.wrap({5})};
  EXPECT_EQ(einsum_contractions("i,i,i->", vec, false), (steps{"i,i->i", "i,i->"}));
  EXPECT_EQ(einsum_contractions("i,i,i->i", vec, false), (steps{"i,i->i", "i,i->i"}));
  // Labels of the output and of the operands not in the step survive a step.
  const ndarray four[] = {f.wrap({2, 3}), f.wrap({3, 4}), f.wrap({4, 2}), f.wrap({2, 6})};
  EXPECT_EQ(einsum_contractions("ij,jk,kl,lm->im", four, einsum_optimize::given({{1, 2}, {0, 1, 2}})),
            (steps{"jk,kl->jl", "ij,lm->ijlm", "ijlm,jl->im"}));
  // One operand: nothing to contract (its diagonal and sums come last).
  const ndarray one[] = {f.wrap({4, 4})};
  EXPECT_EQ(einsum_contractions("ii->", one), steps{});
}

}  // namespace
}  // namespace cupp

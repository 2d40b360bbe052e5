// cupp::sparse against SciPy (tests/conformance/make_sparse_ref.py writes the cases on the GPU
// machine; each test skips, saying so, without a device or without the set): for every value
// dtype and shape (duplicates, explicit zeros, unsorted indices, empty rows and columns, 0xN),
// construction, tocsr/tocsc/tocoo, the canonical-form methods, diagonal, transpose, conj, astype,
// the products (SpMV, SpMM, SpGEMM), the same steps on int64 indices (cupp's own paths), eye,
// diags, vstack, hstack, block_diag, kron, tril and triu, and the arithmetic (sum, mean, +, -, *,
// the element-wise functions). The reference set is read from
// $CUPP_SPARSE_REF, else <conformance>/sparse-ref.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "conformance.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using host_map = std::map<std::string, host_array>;

std::string ref_dir() {
  const char* env = std::getenv("CUPP_SPARSE_REF");
  return env && *env ? std::string(env) : test::conformance_path("sparse-ref");
}

#define CUPP_SPARSE_REF_OR_SKIP()                                                                    \
  CUPP_REQUIRE_GPU();                                                                                \
  if (!std::filesystem::exists(ref_dir() + "/manifest.json"))                                        \
  GTEST_SKIP() << "no SciPy reference set at " << ref_dir()                                          \
               << " (tests/conformance/make_sparse_ref.py makes it where SciPy is installed)"

std::vector<std::string> manifest(const std::string& key) {
  std::vector<std::string> out;
  const YAML::Node root = test::load_yaml(ref_dir() + "/manifest.json");
  const YAML::Node list = root[key];
  if (!list || !list.IsSequence()) return out;
  for (const auto& n : list) out.push_back(n.as<std::string>());
  return out;
}

host_map load_case(const std::string& name) {
  host_map m;
  for (auto& [n, h] : io::load_npz(ref_dir() + "/cases/" + name + ".npz")) m.emplace(n, std::move(h));
  return m;
}

ndarray dev(const host_map& c, const std::string& key) { return asarray(c.at(key)); }

template <class F>
std::string error_of_value(F&& f) {
  try {
    f();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no error>";
}

double rtol_of(const dtype& t) { return t == float32 || t == complex64 ? 1e-5 : 1e-12; }

// The arrays of a compressed object equal SciPy's (dtypes included).
template <class M>
void expect_compressed(const M& a, const host_map& c, const std::string& prefix) {
  CUPP_EXPECT_ARRAY_EQUAL(a.data(), c.at(prefix + "_data"), {.strict = true});
  CUPP_EXPECT_ARRAY_EQUAL(a.indices(), c.at(prefix + "_indices"), {.strict = true});
  CUPP_EXPECT_ARRAY_EQUAL(a.indptr(), c.at(prefix + "_indptr"), {.strict = true});
}

// The same entries with int64 indices, kept as int64 (from_parts skips SciPy's narrowing), so the
// conversions run cupp's own int64 paths.
sparse::csr unsorted_int64(const host_map& c, sparse::shape2 shape) {
  return sparse::csr::from_parts(dev(c, "u_data"), astype(dev(c, "u_indices"), int64), astype(dev(c, "u_indptr"), int64),
                                 shape, sparse::kind::matrix, std::nullopt, std::nullopt);
}

// Runs one part of a case; an exception there is reported and the next part still runs.
template <class F>
void section(const std::string& name, const char* part, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << " (" << part << "): " << e.what();
  }
}

// One case of the set: every check, reported by name.
void check_case(const std::string& name) {
  const host_map c = load_case(name);
  const auto shape_v = c.at("shape").to_vector<std::int64_t>();
  const sparse::shape2 shape{shape_v[0], shape_v[1]};
  const host_array& dense = c.at("dense");
  const auto make_a = [&] { return sparse::coo(dev(c, "data"), sparse::coords{dev(c, "row"), dev(c, "col")}, {.shape = shape}); };
  const auto make_u = [&] { return sparse::csr(dev(c, "u_data"), dev(c, "u_indices"), dev(c, "u_indptr"), {.shape = shape}); };
  // the canonical U, as the reference script's arithmetic, comparisons and reductions use it
  const auto make_uc = [&] {
    sparse::csr u = make_u();
    u.sum_duplicates();
    return u;
  };
  section(name, "coo and its conversions", [&] {
    const sparse::coo a = make_a();
    EXPECT_EQ(a.dtype(), c.at("data").dtype());
    CUPP_EXPECT_ARRAY_EQUAL(a.toarray(), dense, {.strict = true});
    expect_compressed(a.tocsr(), c, "csr");
    expect_compressed(a.tocsc(), c, "csc");
    expect_compressed(sparse::csr(dev(c, "data"), sparse::coords{dev(c, "row"), dev(c, "col")}, {.shape = shape}), c,
                      "csr");
  });
  section(name, "unsorted csr and its methods", [&] {
    const sparse::csr u = make_u();
    EXPECT_EQ(u.index_dtype(), int32);
    EXPECT_EQ(u.has_canonical_format(), c.at("u_canonical").item<bool>());
    EXPECT_EQ(u.has_sorted_indices(), c.at("u_sorted").item<bool>());
    CUPP_EXPECT_ARRAY_EQUAL(u.toarray(), dense, {.strict = true});
    sparse::csr s = u.copy();
    s.sum_duplicates();
    expect_compressed(s, c, "sum");
    EXPECT_TRUE(s.has_canonical_format());
    sparse::csr sorted = u.copy();
    sorted.sort_indices();
    EXPECT_TRUE(sorted.has_sorted_indices());
    CUPP_EXPECT_ARRAY_EQUAL(sorted.toarray(), dense, {.strict = true});
    sparse::csr e = u.copy();
    e.eliminate_zeros();
    EXPECT_EQ(e.nnz(), c.at("elim_nnz").item<std::int64_t>());
    CUPP_EXPECT_ARRAY_EQUAL(e.toarray(), c.at("elim_dense"), {.strict = true});
    EXPECT_EQ(u.count_nonzero(), c.at("count_nonzero").item<std::int64_t>());
    CUPP_EXPECT_ARRAY_EQUAL(u.diagonal(-1), c.at("diag_m1"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.diagonal(0), c.at("diag_0"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.diagonal(2), c.at("diag_2"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.transpose().toarray(), c.at("transpose"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.conj().toarray(), c.at("conj"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.astype(complex128).toarray(), c.at("astype_c128"), {.strict = true});
  });
  section(name, "round trips", [&] {
    const sparse::csr u = make_u();
    const sparse::coo a = make_a();
    // round trips through every format, from dense included
    CUPP_EXPECT_ARRAY_EQUAL(u.tocsc().toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.tocsc().tocsr().toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.tocoo().toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.tocsc().tocoo().toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(a.tocsc().tocsr().toarray(), dense, {.strict = true});
    const ndarray d = asarray(dense);
    const sparse::csr from_dense(d);
    EXPECT_EQ(from_dense.nnz(), c.at("dense_csr_nnz").item<std::int64_t>());
    EXPECT_TRUE(from_dense.has_canonical_format());
    CUPP_EXPECT_ARRAY_EQUAL(from_dense.toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(sparse::csc(d).toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(sparse::coo(d).toarray(), dense, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(sparse::csc(d).tocsr().data(), from_dense.data(), {.strict = true});
  });
  section(name, "int64 indices", [&] {
    // int64 indices: cupp's own expansion, compression and transposition
    const sparse::csr w = unsorted_int64(c, shape);
    EXPECT_EQ(w.index_dtype(), int64);
    CUPP_EXPECT_ARRAY_EQUAL(w.toarray(), dense, {.strict = true});
    const sparse::csc wc = w.tocsc();
    EXPECT_EQ(wc.index_dtype(), int64);
    CUPP_EXPECT_ARRAY_EQUAL(wc.toarray(), dense, {.strict = true});
    EXPECT_TRUE(wc.has_sorted_indices());
    CUPP_EXPECT_ARRAY_EQUAL(w.tocoo().toarray(), dense, {.strict = true});
    sparse::csr ws = w.copy();
    ws.sum_duplicates();
    CUPP_EXPECT_ARRAY_EQUAL(ws.data(), c.at("sum_data"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(astype(ws.indices(), int32), c.at("sum_indices"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(astype(ws.indptr(), int32), c.at("sum_indptr"), {.strict = true});
  });
  section(name, "arithmetic", [&] {
    const sparse::csr u = make_uc().with_kind(sparse::kind::array);  // SciPy's case is a csr_array
    const sparse::csr v =
        sparse::csr_array(dev(c, "v_data"), dev(c, "v_indices"), dev(c, "v_indptr"), sparse::options{.shape = shape});
    const double rtol = rtol_of(c.at("data").dtype());
    CUPP_EXPECT_ALLCLOSE(sparse::sum(u), c.at("sum_all"), {.rtol = rtol, .strict = true});
    CUPP_EXPECT_ALLCLOSE(sparse::sum(u, 0), c.at("sum_0"), {.rtol = rtol, .strict = true});
    CUPP_EXPECT_ALLCLOSE(sparse::sum(u, 1), c.at("sum_1"), {.rtol = rtol, .strict = true});
    if (c.count("mean_all")) {
      // a mean of values that cancel is near 0, where the summation order (SciPy's and cupp's
      // differ) decides the last bits: atol = a few ulps of the largest value over the count
      const double big = astype(cupp::max(cupp::absolute(asarray(dense))), float64).item<double>();
      const double atol = 8 * rtol * big;
      CUPP_EXPECT_ALLCLOSE(sparse::mean(u), c.at("mean_all"), {.rtol = rtol, .atol = atol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(sparse::mean(u, 0), c.at("mean_0"), {.rtol = rtol, .atol = atol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(sparse::mean(u, 1), c.at("mean_1"), {.rtol = rtol, .atol = atol, .strict = true});
    }
    const sparse::csr plus = u + v;
    EXPECT_EQ(plus.nnz(), c.at("plus_nnz").item<std::int64_t>());
    CUPP_EXPECT_ARRAY_EQUAL(plus.toarray(), c.at("plus"), {.strict = true});
    const sparse::csr emul = u * v;  // element-wise: an *_array
    EXPECT_EQ(emul.nnz(), c.at("emul_nnz").item<std::int64_t>());
    CUPP_EXPECT_ARRAY_EQUAL(emul.toarray(), c.at("emul"), {.strict = true});
    if (c.count("minus")) {
      CUPP_EXPECT_ARRAY_EQUAL((u - v).toarray(), c.at("minus"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL((-u).toarray(), c.at("neg"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL((u * 3).toarray(), c.at("scaled"), {.strict = true});
      // |z| of a complex value is hypot's, correct to an ulp (NumPy's and cupp's may differ there)
      CUPP_EXPECT_ALLCLOSE(sparse::abs(u).toarray(), c.at("abs"), {.rtol = rtol, .strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::power(u, 2).toarray(), c.at("power2"), {.strict = true});
    }
    if (c.count("sin")) CUPP_EXPECT_ALLCLOSE(sparse::sin(u).toarray(), c.at("sin"), {.rtol = rtol, .strict = true});
  });
  section(name, "comparisons and extremes", [&] {
    if (!c.count("cmp_eq")) return;
    const sparse::csr u = make_uc().with_kind(sparse::kind::array);
    const sparse::csr v =
        sparse::csr_array(dev(c, "v_data"), dev(c, "v_indices"), dev(c, "v_indptr"), sparse::options{.shape = shape});
    const auto same = [&](const sparse::csr& r, const std::string& key) {
      SCOPED_TRACE(key);
      EXPECT_EQ(r.kind(), sparse::kind::array);
      CUPP_EXPECT_ARRAY_EQUAL(r.toarray(), c.at(key), {.strict = true});
    };
    same(u == v, "cmp_eq"), same(u != v, "cmp_ne"), same(u < v, "cmp_lt");
    same(u <= v, "cmp_le"), same(u > v, "cmp_gt"), same(u >= v, "cmp_ge");
    for (int sv : {0, 1}) {
      const std::string t = "_s" + std::to_string(sv);
      same(u == sv, "cmp_eq" + t), same(u != sv, "cmp_ne" + t), same(u < sv, "cmp_lt" + t);
      same(u <= sv, "cmp_le" + t), same(u > sv, "cmp_gt" + t), same(u >= sv, "cmp_ge" + t);
    }
    same(sparse::maximum(u, v), "maximum"), same(sparse::minimum(u, v), "minimum");
    same(sparse::maximum(u, 1), "maximum_s1"), same(sparse::minimum(u, 1), "minimum_s1");
    if (c.count("maximum_sm1")) same(sparse::maximum(u, -1), "maximum_sm1"), same(sparse::minimum(u, -1), "minimum_sm1");
    if (c.count("max_all")) {
      CUPP_EXPECT_ARRAY_EQUAL(sparse::max(u), c.at("max_all"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::min(u), c.at("min_all"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::argmax(u), c.at("argmax_all"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::argmin(u), c.at("argmin_all"), {.strict = true});
      for (int axis : {0, 1}) {
        SCOPED_TRACE("axis " + std::to_string(axis));
        const std::string t = "_" + std::to_string(axis);
        CUPP_EXPECT_ARRAY_EQUAL(sparse::max(u, axis), c.at("max" + t), {.strict = true});
        CUPP_EXPECT_ARRAY_EQUAL(sparse::min(u, axis), c.at("min" + t), {.strict = true});
        CUPP_EXPECT_ARRAY_EQUAL(sparse::argmax(u, axis), c.at("argmax" + t), {.strict = true});
        CUPP_EXPECT_ARRAY_EQUAL(sparse::argmin(u, axis), c.at("argmin" + t), {.strict = true});
      }
    }
  });
  section(name, "setdiag and selection", [&] {
    if (c.count("setdiag_0")) {
      sparse::csr s = make_u();
      s.setdiag(dev(c, "setdiag_values"));
      EXPECT_TRUE(s.has_canonical_format());
      CUPP_EXPECT_ARRAY_EQUAL(s.toarray(), c.at("setdiag_0"), {.strict = true});
      sparse::csc k = make_u().tocsc();
      k.setdiag(dev(c, "setdiag_values"));
      CUPP_EXPECT_ARRAY_EQUAL(k.toarray(), c.at("setdiag_0"), {.strict = true});
      sparse::coo o = make_a();
      o.setdiag(dev(c, "setdiag_values"));
      CUPP_EXPECT_ARRAY_EQUAL(o.toarray(), c.at("setdiag_0"), {.strict = true});
    }
    if (c.count("setdiag_s1")) {
      sparse::csr s = make_u();
      if (c.at("data").dtype() == bool_) s.setdiag(true, 1);
      else s.setdiag(2, 1);
      CUPP_EXPECT_ARRAY_EQUAL(s.toarray(), c.at("setdiag_s1"), {.strict = true});
    }
    if (c.count("setdiag_m1")) {
      sparse::csc s = make_u().tocsc();
      s.setdiag(dev(c, "setdiag_values")(slice(std::nullopt, 1)), -1);
      CUPP_EXPECT_ARRAY_EQUAL(s.toarray(), c.at("setdiag_m1"), {.strict = true});
    }
    if (c.count("sel_rows")) {
      const sparse::csr u = make_u();
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u, dev(c, "sel_rows_idx")).toarray(), c.at("sel_rows"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u, slice(1, std::nullopt, 2)).toarray(), c.at("sel_rows_slice"),
                              {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u, -1).toarray(), c.at("sel_row_neg"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u.tocsc(), dev(c, "sel_rows_idx")).toarray(), c.at("sel_rows"),
                              {.strict = true});
    }
    if (c.count("sel_cols")) {
      const sparse::csr u = make_u();
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u, {}, dev(c, "sel_cols_idx")).toarray(), c.at("sel_cols"),
                              {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u, {}, slice(std::nullopt, std::nullopt, -1)).toarray(),
                              c.at("sel_cols_slice"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(u.tocsc(), {}, dev(c, "sel_cols_idx")).toarray(), c.at("sel_cols"),
                              {.strict = true});
    }
    if (c.count("sel_both")) {
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select(make_u(), slice(1, std::nullopt, 2), dev(c, "sel_cols_idx")).toarray(),
                              c.at("sel_both"), {.strict = true});
    }
    if (c.count("sel_points")) {  // SciPy's A[rows, cols] of a csr_array: 1-D values
      const sparse::csr u = make_u().with_kind(sparse::kind::array);
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select_values(u, dev(c, "pts_r"), dev(c, "pts_c")), c.at("sel_points"),
                              {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::select_values(u.tocsc(), dev(c, "pts_r"), dev(c, "pts_c")), c.at("sel_points"),
                              {.strict = true});
    }
  });
  section(name, "dia", [&] {
    if (!c.count("dia_data")) return;
    const sparse::dia d = sparse::todia(make_u());
    CUPP_EXPECT_ARRAY_EQUAL(d.data(), c.at("dia_data"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(astype(d.offsets(), int64), c.at("dia_offsets"), {.strict = true});
    EXPECT_EQ(d.nnz(), c.at("dia_nnz").item<std::int64_t>());
    CUPP_EXPECT_ARRAY_EQUAL(d.toarray(), dense, {.strict = true});
    const sparse::dia e(dev(c, "dia_data"), dev(c, "dia_offsets"), shape);
    CUPP_EXPECT_ARRAY_EQUAL(e.tocsr().toarray(), dense, {.strict = true});
    EXPECT_TRUE(e.tocsr().has_canonical_format());
    CUPP_EXPECT_ARRAY_EQUAL(e.diagonal(0), c.at("diag_0"), {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(sparse::dia(make_a()).toarray(), dense, {.strict = true});
  });
  section(name, "products", [&] {
    const sparse::csr u = make_u();
    const sparse::coo a = make_a();
    const sparse::csr w = unsorted_int64(c, shape);
    if (c.count("x")) {
      const double rtol = rtol_of(c.at("x").dtype());
      CUPP_EXPECT_ALLCLOSE(u.dot(dev(c, "x")), c.at("Ax"), {.rtol = rtol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(sparse::spmv(u, dev(c, "x"), {.deterministic = false}), c.at("Ax"), {.rtol = rtol});
      CUPP_EXPECT_ALLCLOSE(u.dot(dev(c, "B")), c.at("AB"), {.rtol = rtol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(w.dot(dev(c, "B")), c.at("AB"), {.rtol = rtol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(u.tocsc().dot(dev(c, "x")), c.at("Ax"), {.rtol = rtol});
      CUPP_EXPECT_ALLCLOSE(a.dot(dev(c, "x")), c.at("Ax"), {.rtol = rtol});
      const sparse::csr at = u.transpose().tocsr();
      CUPP_EXPECT_ALLCLOSE(u.dot(at).toarray(), c.at("AAt"), {.rtol = rtol, .strict = true});
      CUPP_EXPECT_ALLCLOSE(sparse::spgemm(w, at).toarray(), c.at("AAt"), {.rtol = rtol});
      CUPP_EXPECT_ALLCLOSE(cupp::matmul(u, at).toarray(), c.at("AAt"), {.rtol = rtol, .strict = true});
      if (c.count("yA")) {
        CUPP_EXPECT_ALLCLOSE(cupp::matmul(dev(c, "y"), u), c.at("yA"), {.rtol = rtol, .strict = true});
        CUPP_EXPECT_ALLCLOSE(cupp::matmul(dev(c, "C"), u), c.at("CA"), {.rtol = rtol, .strict = true});
        CUPP_EXPECT_ALLCLOSE(cupp::matmul(dev(c, "C"), u.tocsc()), c.at("CA"), {.rtol = rtol, .strict = true});
        CUPP_EXPECT_ALLCLOSE(cupp::matmul(u, dev(c, "B")), c.at("AB"), {.rtol = rtol, .strict = true});
      }
    }
  });
}

TEST(SparseRefGpu, FormatsAndConversionsMatchSciPy) {
  CUPP_SPARSE_REF_OR_SKIP();
  const auto names = manifest("cases");
  ASSERT_FALSE(names.empty());
  for (const std::string& p : manifest("problems"))  // what SciPy refused while making the set
    std::fprintf(stderr, "[sparse set problem] %s\n", p.c_str());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    std::fprintf(stderr, "[sparse case] %s\n", name.c_str());  // progress, for a run cut short
    try {
      check_case(name);
    } catch (const std::exception& e) {  // one case's error does not hide the others'
      ADD_FAILURE() << name << ": " << e.what();
    }
  }
}

TEST(SparseRefGpu, ProductsAreDeterministic) {
  CUPP_SPARSE_REF_OR_SKIP();
  const host_map c = load_case("float32_30x40");
  const sparse::csr u(dev(c, "u_data"), dev(c, "u_indices"), dev(c, "u_indptr"), {.shape = sparse::shape2{30, 40}});
  const ndarray x = dev(c, "x"), b = dev(c, "B");
  const host_array y0 = u.dot(x).get(), c0 = u.dot(b).get();
  for (int i = 0; i < 3; ++i) {
    CUPP_EXPECT_ARRAY_EQUAL(u.dot(x), y0, {.strict = true});
    CUPP_EXPECT_ARRAY_EQUAL(u.dot(b), c0, {.strict = true});
  }
}

TEST(SparseRefGpu, ConstructorsMatchSciPy) {
  CUPP_SPARSE_REF_OR_SKIP();
  for (const std::string& name : manifest("constructors")) {
    SCOPED_TRACE(name);
    const host_map c = load_case(name);
    if (name.rfind("eye_", 0) == 0) {
      const sparse::csr e = sparse::eye(c.at("m").item<std::int64_t>(), c.at("n").item<std::int64_t>(),
                                        c.at("k").item<std::int64_t>());
      EXPECT_TRUE(e.has_canonical_format());
      CUPP_EXPECT_ARRAY_EQUAL(e.toarray(), c.at("dense"), {.strict = true});
    } else if (name.rfind("stack_", 0) == 0) {
      const auto operand = [&](const std::string& p) {
        const auto shape = c.at(p + "shape").to_vector<std::int64_t>();
        return sparse::csr(dev(c, p + "data"), dev(c, p + "indices"), dev(c, p + "indptr"),
                           {.shape = sparse::shape2{shape[0], shape[1]}});
      };
      const sparse::csr a = operand("a_"), b = operand("b_"), cc = operand("c_"), z = operand("z_");
      CUPP_EXPECT_ARRAY_EQUAL(sparse::vstack({a, z, b}).toarray(), c.at("vstack"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::hstack({a, cc}).toarray(), c.at("hstack"), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(sparse::block_diag({a, b, cc}).toarray(), c.at("block_diag"), {.strict = true});
      CUPP_EXPECT_ALLCLOSE(sparse::kron(a, cc).toarray(), c.at("kron"), {.rtol = 1e-12, .strict = true});
      for (const auto& [k, key] : std::vector<std::pair<int, std::string>>{{-1, "m1"}, {0, "0"}, {1, "1"}}) {
        CUPP_EXPECT_ARRAY_EQUAL(sparse::tril(a, k).toarray(), c.at("tril_" + key), {.strict = true});
        CUPP_EXPECT_ARRAY_EQUAL(sparse::triu(a, k).toarray(), c.at("triu_" + key), {.strict = true});
      }
      EXPECT_EQ(error_of_value([&] { sparse::vstack({a, cc}); }), "incompatible dimensions for axis 1");
      EXPECT_EQ(error_of_value([&] { sparse::hstack({a, b}); }), "incompatible dimensions for axis 0");
    } else {
      const sparse::csr d = sparse::diags({dev(c, "d0"), dev(c, "d1"), dev(c, "dm")}, {0, 1, -1});
      EXPECT_EQ(d.nnz(), c.at("nnz").item<std::int64_t>());
      CUPP_EXPECT_ARRAY_EQUAL(d.toarray(), c.at("dense"), {.strict = true});
    }
  }
}

TEST(SparseRefGpu, LoadsSciPysNpzFiles) {
  CUPP_SPARSE_REF_OR_SKIP();
  const auto names = manifest("scipy_written");
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string base = ref_dir() + "/scipy_written/" + name;
    const sparse::loaded_npz l = sparse::load_npz(base + ".npz");
    const std::string fmt = name.substr(0, 3);
    const bool is_array = name.find("_array_") != std::string::npos;
    const host_array dense = io::load_npy(base + ".dense.npy");
    EXPECT_EQ(l.fmt, fmt == "csr"   ? sparse::format::csr
                     : fmt == "csc" ? sparse::format::csc
                     : fmt == "dia" ? sparse::format::dia
                                    : sparse::format::coo);
    const sparse::csr a = l.tocsr();
    EXPECT_EQ(a.is_array(), is_array);
    EXPECT_EQ(a.dtype(), dense.dtype());
    CUPP_EXPECT_ARRAY_EQUAL(a.toarray(), dense, {.strict = true});
  }
}

// Writes cupp's files for SciPy to read back (make_sparse_ref.py --check $CUPP_SPARSE_OUT), and
// reads them back itself.
TEST(SparseRefGpu, WritesNpzFilesSciPyReads) {
  CUPP_REQUIRE_GPU();
  const char* env = std::getenv("CUPP_SPARSE_OUT");
  const std::filesystem::path out = env && *env ? std::filesystem::path(env)
                                                : std::filesystem::temp_directory_path() / "cupp-sparse-npz";
  std::filesystem::create_directories(out);
  const ndarray base = array<double>({{0, 2, 0, 1}, {0, 0, 0, 0}, {3, 0, -1, 0}});
  for (const char* type_name : {"float32", "complex128", "int64", "bool"}) {
    const dtype t = dtype::parse(type_name);
    const ndarray d = astype(base, t);
    const host_array want = d.get();
    for (const bool is_array : {false, true}) {
      const sparse::kind k = is_array ? sparse::kind::array : sparse::kind::matrix;
      const std::string suffix = std::string(is_array ? "_array_" : "_matrix_") + type_name;
      const sparse::csr a = sparse::csr(d).with_kind(k);
      sparse::save_npz(out / ("csr" + suffix + ".npz"), a, t != bool_);
      sparse::save_npz(out / ("csc" + suffix + ".npz"), a.tocsc());
      sparse::save_npz(out / ("coo" + suffix), a.tocoo());  // ".npz" appended, as numpy.savez does
      sparse::save_npz(out / ("dia" + suffix + ".npz"), sparse::todia(a).with_kind(k));
      for (const char* fmt : {"csr", "csc", "coo", "dia"}) {
        const std::filesystem::path file = out / (std::string(fmt) + suffix + ".npz");
        io::save_npy(out / (std::string(fmt) + suffix + ".dense.npy"), want);
        const sparse::loaded_npz l = sparse::load_npz(file);
        const sparse::csr back = l.tocsr();
        EXPECT_EQ(back.is_array(), is_array) << file;
        CUPP_EXPECT_ARRAY_EQUAL(back.toarray(), want, {.strict = true});
      }
    }
  }
}

}  // namespace
}  // namespace cupp

// Example for docs/sparse.md, built and run by the tests (CTest `example_sparse`, label gpu): a
// CSR matrix from SciPy's (data, indices, indptr) and from a dense array, its canonical form,
// the conversions, y = A x (SpMV), C = A B with a row-major B (SpMM), A @ A (SpGEMM), eye and
// diags, a round trip through SciPy's .npz layout, and selection, comparison, maximum, argmax,
// setdiag, DIA, dense @ sparse, random, point-wise selection and an integer product. Values are compared with the dense matrix and
// its products computed by hand; a mismatch prints "FAILED: ..." and exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/reductions.hpp>
#include <cupp/sparse.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <filesystem>
#include <vector>

namespace sp = cupp::sparse;

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  // [[1, 0, 2], [0, 0, 3], [4, 5, 0]] with row 0's entries out of order and a duplicate in row 2
  const cupp::ndarray data = cupp::asarray(std::vector<double>{2, 1, 3, 4, 3, 2});
  const cupp::ndarray indices = cupp::asarray(std::vector<std::int32_t>{2, 0, 2, 0, 1, 1});
  const cupp::ndarray indptr = cupp::asarray(std::vector<std::int32_t>{0, 2, 3, 6});
  const cupp::ndarray dense = cupp::asarray(std::vector<double>{1, 0, 2, 0, 0, 3, 4, 5, 0}).reshape({3, 3});
  // The same matrix as COO triplets, (2, 1) given twice.
  const cupp::ndarray vals = cupp::asarray(std::vector<double>{2, 1, 3, 4, 3, 2});
  const cupp::ndarray row = cupp::asarray(std::vector<std::int32_t>{0, 0, 1, 2, 2, 2});
  const cupp::ndarray col = cupp::asarray(std::vector<std::int32_t>{2, 0, 2, 0, 1, 1});
  const cupp::ndarray x = cupp::asarray(std::vector<double>{1, 1, 1});
  const cupp::ndarray B = cupp::ones({3, 4});
  const bool was_canonical =
      sp::csr_matrix(data, indices, indptr, sp::options{.shape = sp::shape2{3, 3}}).has_canonical_format();

  // [snippet overview]
  namespace sp = cupp::sparse;
  sp::csr a = sp::csr_matrix(data, indices, indptr, sp::options{.shape = sp::shape2{3, 3}});  // SciPy's 3-tuple form
  a.sum_duplicates();                       // canonical: sorted indices, duplicates summed
  sp::csr b = sp::csr_array(dense);         // from a dense 2-D array; a csr_array
  sp::coo c = sp::coo_matrix(vals, sp::coords{row, col});  // (data, (row, col)); shape inferred
  cupp::ndarray y = a.dot(x);               // SpMV (x 1-D)
  cupp::ndarray C = a.dot(B);               // SpMM (B 2-D, row-major, used as is)
  sp::csr a2 = a.dot(a);                    // SpGEMM
  sp::save_npz("a.npz", a);                 // scipy.sparse.load_npz reads it
  sp::csr back = sp::load_npz("a.npz").tocsr();
  // [end snippet]
  std::filesystem::remove("a.npz");

  // [snippet more]
  sp::csr r = sp::select(a, cupp::slice(1, std::nullopt));  // A[1:]: rows 1 and 2
  sp::csr big = a > 2;                                 // bool CSR, True where A > 2
  sp::csr m = sp::maximum(a, sp::eye(3));              // element-wise maximum with the identity
  cupp::ndarray amax = sp::argmax(a, 1);               // each row's column of its maximum, (3, 1)
  sp::csr d = a.copy();
  d.setdiag(7.0);                                      // the main diagonal set to 7
  sp::dia g = sp::todia(a);                            // DIA: one row of data per diagonal
  cupp::ndarray xa = cupp::matmul(x, a);               // dense @ sparse: the column sums
  sp::coo rnd = sp::random(100, 100, {.density = 0.05, .seed = 1});  // 500 distinct positions
  cupp::ndarray pts = sp::select_values(b, cupp::asarray(std::vector<std::int64_t>{0, 2}),
                                        cupp::asarray(std::vector<std::int64_t>{2, 1}));  // b[[0, 2], [2, 1]]
  cupp::ndarray yi = a.astype(cupp::int32).dot(cupp::astype(x, cupp::int32));  // an int32 SpMV
  // [end snippet]

  const sp::csc cc = a.tocsc();                          // csr2cscEx2
  const sp::coo o = a.tocoo();
  const double a2_00 = a2.toarray()(0, 0).item<double>();  // 1*1 + 2*4 = 9

  const sp::csr i3 = sp::eye(3);
  const sp::csr t = sp::diags({cupp::asarray(std::vector<double>{2, 2, 2}), cupp::asarray(std::vector<double>{-1, -1})},
                              {0, 1});                   // 3x3 upper bidiagonal

  const auto yv = y.to_vector<double>();
  bool ok = true;
  auto check = [&ok](bool good, const char* what) {
    if (!good) std::printf("FAILED: %s\n", what);
    ok = ok && good;
  };
  check(!was_canonical && a.nnz() == 5 && a.has_canonical_format(), "sum_duplicates(): nnz 5, canonical");
  check(cupp::all(cupp::equal(a.toarray(), dense)).item<bool>(), "csr_matrix(data, indices, indptr).toarray()");
  check(b.is_array() && b.nnz() == 5 && cupp::all(cupp::equal(b.toarray(), dense)).item<bool>(), "csr_array(dense)");
  check(!c.is_array() && c.shape()[0] == 3 && c.shape()[1] == 3 &&
            cupp::all(cupp::equal(c.toarray(), dense)).item<bool>(),
        "coo_matrix(vals, (row, col)): shape (3, 3) inferred, duplicates summed in toarray()");
  check(yv == std::vector<double>{3, 3, 9}, "SpMV: A x is not the row sums [3, 3, 9]");
  check(C.shape()[0] == 3 && C.shape()[1] == 4 &&
            C.to_vector<double>() == std::vector<double>{3, 3, 3, 3, 3, 3, 3, 3, 9, 9, 9, 9},
        "SpMM: A B is not the row sums in every column");
  check(a2_00 == 9 && a2.toarray().to_vector<double>() == std::vector<double>{9, 10, 2, 12, 15, 0, 4, 0, 23},
        "SpGEMM: A @ A");
  check(cc.nnz() == 5 && o.nnz() == 5, "tocsc(), tocoo() keep 5 entries");
  check(i3.nnz() == 3 && t.nnz() == 5, "eye(3), diags");
  check(!back.is_array() && cupp::all(cupp::equal(back.toarray(), dense)).item<bool>(), "save_npz / load_npz");
  const auto same = [](const cupp::ndarray& u, std::vector<double> v) { return u.to_vector<double>() == v; };
  check(same(r.toarray(), {0, 0, 3, 4, 5, 0}), "select(a, 1:)");
  check(big.nnz() == 3 && big.dtype() == cupp::bool_, "a > 2");
  check(m.nnz() == 7 && same(m.toarray(), {1, 0, 2, 0, 1, 3, 4, 5, 1}), "maximum(a, eye(3))");
  check(amax.ndim() == 2 && amax.to_vector<std::int64_t>() == std::vector<std::int64_t>{2, 2, 1}, "argmax(a, 1)");
  check(same(d.toarray(), {7, 0, 2, 0, 7, 3, 4, 5, 7}), "setdiag(7)");
  check(g.offsets().size() == 5 && same(g.toarray(), {1, 0, 2, 0, 0, 3, 4, 5, 0}), "todia(a)");
  check(same(xa, {5, 5, 5}), "matmul(x, a)");
  check(rnd.nnz() == 500, "random(100, 100, density 0.05)");
  check(pts.ndim() == 1 && same(pts, {2, 5}), "select_values(b, [0, 2], [2, 1])");
  check(yi.dtype() == cupp::int32 && yi.to_vector<std::int32_t>() == std::vector<std::int32_t>{3, 3, 9}, "int32 SpMV");
  std::printf("nnz %lld, y = [%g, %g, %g], (A @ A)[0, 0] = %g: %s\n", static_cast<long long>(a.nnz()), yv[0], yv[1],
              yv[2], a2_00, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

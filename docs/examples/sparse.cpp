// Example for docs/sparse.md, built and run by the tests (CTest `example_sparse`, label gpu): a
// CSR matrix from SciPy's (data, indices, indptr) and from a dense array, its canonical form,
// the conversions, y = A x (SpMV), C = A B with a row-major B (SpMM), A @ A (SpGEMM), eye and
// diags, and a round trip through SciPy's .npz layout. Exits 1 on a wrong value.
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
  sp::csr a = sp::csr_matrix(data, indices, indptr, sp::options{.shape = sp::shape2{3, 3}});
  const bool was_canonical = a.has_canonical_format();  // false: unsorted, and (2, 1) twice
  a.sum_duplicates();                                    // sorted, 3 + 2 summed: nnz 5

  const cupp::ndarray dense = a.toarray();               // (3, 3) float64
  const sp::csr b = sp::csr_array(dense);                // from dense: a csr_array
  const sp::csc c = a.tocsc();                           // csr2cscEx2
  const sp::coo o = a.tocoo();

  const cupp::ndarray x = cupp::asarray(std::vector<double>{1, 1, 1});
  const cupp::ndarray y = a.dot(x);                      // SpMV: row sums 3, 3, 9
  const cupp::ndarray B = cupp::ones({3, 4});            // row-major, used as is
  const cupp::ndarray C = a.dot(B);                      // SpMM: (3, 4)
  const sp::csr a2 = a.dot(a);                           // SpGEMM
  const double a2_00 = a2.toarray()(0, 0).item<double>();  // 1*1 + 2*4 = 9

  const sp::csr i3 = sp::eye(3);
  const sp::csr t = sp::diags({cupp::asarray(std::vector<double>{2, 2, 2}), cupp::asarray(std::vector<double>{-1, -1})},
                              {0, 1});                   // 3x3 upper bidiagonal

  const std::filesystem::path file = std::filesystem::temp_directory_path() / "cupp_sparse_example.npz";
  sp::save_npz(file, b);                                 // scipy.sparse.load_npz reads it
  const sp::csr back = sp::load_npz(file).tocsr();

  const auto yv = y.to_vector<double>();
  const bool ok = !was_canonical && a.nnz() == 5 && b.is_array() && c.nnz() == 5 && o.nnz() == 5 &&
                  yv[0] == 3 && yv[1] == 3 && yv[2] == 9 && cupp::sum(C).item<double>() == 60 && a2_00 == 9 &&
                  i3.nnz() == 3 && t.nnz() == 5 && back.is_array() &&
                  cupp::all(cupp::equal(back.toarray(), dense)).item<bool>();
  std::printf("nnz %lld, y = [%g, %g, %g], (A @ A)[0, 0] = %g: %s\n", static_cast<long long>(a.nnz()), yv[0], yv[1],
              yv[2], a2_00, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

// Example for docs/creation.md, built and run by the tests (CTest example_creation, label gpu): a
// call of every creation routine with its options (ones, full, the *_like forms, arange,
// linspace, logspace, geomspace, eye, identity, tri, tril, triu, diag, diagflat, meshgrid,
// indices, fromfunction), each result's dtype, shape and values compared with NumPy's, and the
// errors the guide names (OverflowError, ValueError).
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/elementwise_kernel.hpp>
#include <cupp/errors.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {
int failures = 0;
void fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  ++failures;
}
bool same_shape(const cupp::ndarray& a, const cupp::shape_t& shape) {
  return cupp::shape_t(a.shape().begin(), a.shape().end()) == shape;
}
// a has this dtype and shape and exactly these values (T: the dtype's own C++ type).
template <class T>
void expect(const cupp::ndarray& a, cupp::dtype type, const cupp::shape_t& shape, const std::vector<T>& values,
            const std::string& what) {
  if (a.dtype() != type || !same_shape(a, shape)) return fail(what + ": dtype or shape");
  if (a.to_vector<T>() != values) fail(what + ": values");
}
// The same with a relative tolerance (values computed by the GPU's pow, log10, ...).
template <class T>
void expect_close(const cupp::ndarray& a, cupp::dtype type, const cupp::shape_t& shape, const std::vector<double>& values,
                  const std::string& what) {
  if (a.dtype() != type || !same_shape(a, shape)) return fail(what + ": dtype or shape");
  const std::vector<T> got = a.to_vector<T>();
  for (std::size_t k = 0; k < values.size(); ++k)
    if (std::abs(static_cast<double>(got[k]) - values[k]) > 1e-6 * std::abs(values[k]) + 1e-12) return fail(what + ": values");
}
template <class E, class F>
void expect_throws(F f, const std::string& what) {
  try {
    f();
  } catch (const E&) {
    return;
  }
  fail(what + ": no error");
}
using i64 = std::vector<std::int64_t>;
using f64 = std::vector<double>;
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  {
    // [snippet ones_full]
    auto a = cupp::ones({2, 3});                          // float64 (the default dtype)
    auto b = cupp::full({2, 2}, 7);                       // int64: np.asarray(7)'s dtype
    auto c = cupp::full({2}, 2.9, cupp::int32);           // [2, 2]: casting='unsafe' truncates
    auto d = cupp::full({2, 3}, cupp::array({1.5, 2.5, 3.5}));   // an array fill value broadcasts
    // cupp::full({2}, 300, cupp::uint8) is an OverflowError, as in NumPy 2
    // [end snippet]
    expect(a, cupp::float64, {2, 3}, f64(6, 1.0), "ones");
    expect(b, cupp::int64, {2, 2}, i64(4, 7), "full with an integer");
    expect(c, cupp::int32, {2}, std::vector<std::int32_t>{2, 2}, "full with a float into int32");
    expect(d, cupp::float64, {2, 3}, f64{1.5, 2.5, 3.5, 1.5, 2.5, 3.5}, "full with an array");
    expect_throws<cupp::OverflowError>([] { cupp::full({2}, 300, cupp::uint8); }, "full({2}, 300, uint8)");
  }
  {
    // [snippet like]
    auto m = cupp::arange(6.0).reshape({2, 3}).T();       // a Fortran-ordered (3, 2) view
    auto e = cupp::empty_like(m);                         // float64 (3, 2), Fortran order as m
    auto z = cupp::zeros_like(m, {.dtype = cupp::int32});
    auto o = cupp::ones_like(m, {.shape = cupp::shape_t{4}});                       // (4,): C order
    auto f = cupp::full_like(m, 5, {.dtype = cupp::uint8, .shape = cupp::shape_t{2, 2}});
    auto g = cupp::full_like(m, cupp::array({1.0, 2.0}));    // the array broadcasts to (3, 2)
    // [end snippet]
    if (e.dtype() != cupp::float64 || !same_shape(e, {3, 2}) || !e.is_f_contiguous() || e.is_c_contiguous())
      fail("empty_like keeps the prototype's order");
    expect(z, cupp::int32, {3, 2}, std::vector<std::int32_t>(6, 0), "zeros_like with a dtype");
    if (!z.is_f_contiguous()) fail("zeros_like keeps the prototype's order");
    expect(o, cupp::float64, {4}, f64(4, 1.0), "ones_like with a shape");
    expect(f, cupp::uint8, {2, 2}, std::vector<std::uint8_t>(4, 5), "full_like with a dtype and a shape");
    expect(g, cupp::float64, {3, 2}, f64{1, 2, 1, 2, 1, 2}, "full_like with an array");
  }
  {
    // [snippet arange]
    auto r = cupp::arange(5);                             // int64 [0, 1, 2, 3, 4]
    auto s = cupp::arange(1.0, 1.3, 0.1);                 // float64, 4 elements as in NumPy
    auto t = cupp::arange(0.5, 5, 1.5, cupp::int64);      // [0, 2, 4]: the first two truncate
    auto u = cupp::arange(10, 0, -3, cupp::float32);      // [10, 7, 4, 1]
    // [end snippet]
    expect(r, cupp::int64, {5}, i64{0, 1, 2, 3, 4}, "arange(5)");
    expect_close<double>(s, cupp::float64, {4}, f64{1.0, 1.1, 1.2, 1.3}, "arange(1.0, 1.3, 0.1)");
    expect(t, cupp::int64, {3}, i64{0, 2, 4}, "arange(0.5, 5, 1.5, int64)");
    expect(u, cupp::float32, {4}, std::vector<float>{10, 7, 4, 1}, "arange(10, 0, -3, float32)");
    expect_throws<cupp::OverflowError>([] { cupp::arange(250, 260, 1, cupp::int8); }, "arange(250, 260, 1, int8)");
    expect_throws<cupp::ValueError>([] { cupp::arange(0, 1, 0); }, "arange with step 0");
  }
  {
    // [snippet linspace]
    auto l = cupp::linspace(0, 1, 5);                     // [0, 0.25, 0.5, 0.75, 1]
    auto h = cupp::linspace(0, 1, 4, {.endpoint = false});   // [0, 0.25, 0.5, 0.75]
    auto [samples, step] = cupp::linspace_with_step(2.0, 3.0, 5);   // step: a 0-d float64 array, 0.25
    auto rows = cupp::linspace(cupp::array({0.0, 10.0}), cupp::array({1.0, 20.0}), 3, {.axis = 1});
    // rows: [[0, 0.5, 1], [10, 15, 20]]
    auto ints = cupp::linspace(0, 10, 4, {.dtype = cupp::int32});   // [0, 3, 6, 10]: floor, then the cast
    // [end snippet]
    expect(l, cupp::float64, {5}, f64{0, 0.25, 0.5, 0.75, 1}, "linspace(0, 1, 5)");
    expect(h, cupp::float64, {4}, f64{0, 0.25, 0.5, 0.75}, "linspace without the endpoint");
    expect(samples, cupp::float64, {5}, f64{2, 2.25, 2.5, 2.75, 3}, "linspace_with_step's samples");
    if (step.ndim() != 0 || step.item<double>() != 0.25) fail("linspace_with_step's step");
    expect(rows, cupp::float64, {2, 3}, f64{0, 0.5, 1, 10, 15, 20}, "linspace of arrays along axis 1");
    expect(ints, cupp::int32, {4}, std::vector<std::int32_t>{0, 3, 6, 10}, "linspace into int32");
    expect_throws<cupp::ValueError>([] { cupp::linspace(0, 1, -1); }, "linspace with num -1");
  }
  {
    // [snippet logspace]
    auto p = cupp::logspace(0, 3, 4);                     // [1, 10, 100, 1000]
    auto q = cupp::logspace(0, 3, 4, {.base = 2.0, .dtype = cupp::float32});   // [1, 2, 4, 8]
    auto w = cupp::logspace(0, 1, 2, {.endpoint = false});   // [1, 3.16227766]: 10 ** [0, 0.5]
    // [end snippet]
    expect_close<double>(p, cupp::float64, {4}, f64{1, 10, 100, 1000}, "logspace(0, 3, 4)");
    expect_close<float>(q, cupp::float32, {4}, f64{1, 2, 4, 8}, "logspace with base 2 into float32");
    expect_close<double>(w, cupp::float64, {2}, f64{1, std::sqrt(10.0)}, "logspace without the endpoint");
  }
  {
    // [snippet geomspace]
    auto g1 = cupp::geomspace(1, 1000, 4);                // [1, 10, 100, 1000]: the ends exactly
    auto g2 = cupp::geomspace(-1, -1000, 4);              // [-1, -10, -100, -1000]: negative ends work
    auto g3 = cupp::geomspace(2, 32, 3, {.endpoint = false, .dtype = cupp::float32});   // [2, 5.0396843, 12.699208]
    // cupp::geomspace(0, 1, 3) is ValueError("Geometric sequence cannot include zero")
    // [end snippet]
    expect_close<double>(g1, cupp::float64, {4}, f64{1, 10, 100, 1000}, "geomspace(1, 1000, 4)");
    if (g1.to_vector<double>().front() != 1.0 || g1.to_vector<double>().back() != 1000.0) fail("geomspace's exact ends");
    expect_close<double>(g2, cupp::float64, {4}, f64{-1, -10, -100, -1000}, "geomspace of negative ends");
    expect_close<float>(g3, cupp::float32, {3}, f64{2, 2 * std::pow(16.0, 1.0 / 3), 2 * std::pow(16.0, 2.0 / 3)},
                        "geomspace without the endpoint");
    expect_throws<cupp::ValueError>([] { cupp::geomspace(0, 1, 3); }, "geomspace from 0");
  }
  {
    // [snippet eye]
    auto i3 = cupp::identity(3);                          // 3x3 float64
    auto e2 = cupp::eye(2, 3, 1, cupp::int32);            // [[0, 1, 0], [0, 0, 1]]: k = 1, above the diagonal
    auto e4 = cupp::eye(4, std::nullopt, -2);             // M = N; ones on the second diagonal below
    // [end snippet]
    expect(i3, cupp::float64, {3, 3}, f64{1, 0, 0, 0, 1, 0, 0, 0, 1}, "identity(3)");
    expect(e2, cupp::int32, {2, 3}, std::vector<std::int32_t>{0, 1, 0, 0, 0, 1}, "eye(2, 3, 1, int32)");
    expect(e4, cupp::float64, {4, 4}, f64{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}, "eye(4, k=-2)");
    expect_throws<cupp::ValueError>([] { cupp::eye(-1); }, "eye(-1)");
  }
  {
    // [snippet tri]
    auto t = cupp::tri(3, 4, 0, cupp::int8);              // ones at and below the diagonal, 3x4
    auto m = cupp::arange(1, 10).reshape({3, 3});         // [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    auto lo = cupp::tril(m);                              // [[1, 0, 0], [4, 5, 0], [7, 8, 9]]
    auto up = cupp::triu(m, 1);                           // [[0, 2, 3], [0, 0, 6], [0, 0, 0]]
    auto b = cupp::tril(cupp::array({1, 2, 3}));          // 1-d: broadcast to (3, 3) first
    // [end snippet]
    expect(t, cupp::int8, {3, 4}, std::vector<std::int8_t>{1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0}, "tri(3, 4, int8)");
    expect(lo, cupp::int64, {3, 3}, i64{1, 0, 0, 4, 5, 0, 7, 8, 9}, "tril");
    expect(up, cupp::int64, {3, 3}, i64{0, 2, 3, 0, 0, 6, 0, 0, 0}, "triu(m, 1)");
    expect(b, cupp::int64, {3, 3}, i64{1, 0, 0, 1, 2, 0, 1, 2, 3}, "tril of a 1-d array");
  }
  {
    const cupp::ndarray m = cupp::arange(1, 10).reshape({3, 3});
    // [snippet diag]
    auto d = cupp::diag(cupp::array({1, 2}), 1);          // [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    auto v = cupp::diag(m);                               // m's diagonal: a read-only view
    auto f = cupp::diagflat(cupp::array({{1, 2}, {3, 4}}));   // 4x4 with 1, 2, 3, 4 on the diagonal
    // [end snippet]
    expect(d, cupp::int64, {3, 3}, i64{0, 1, 0, 0, 0, 2, 0, 0, 0}, "diag of a vector, k = 1");
    expect(v, cupp::int64, {3}, i64{1, 5, 9}, "diag of a matrix");
    if (v.writeable()) fail("diag of a matrix is read-only");
    expect(f, cupp::int64, {4, 4}, i64{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4}, "diagflat");
    expect_throws<cupp::ValueError>([] { cupp::diag(cupp::zeros({2, 2, 2})); }, "diag of a 3-d array");
  }
  {
    // [snippet meshgrid]
    auto x = cupp::array({1, 2, 3});
    auto y = cupp::array({10, 20});
    auto xy = cupp::meshgrid({x, y});                     // both (2, 3): "xy" swaps the first two axes
    auto ij = cupp::meshgrid({x, y}, {.indexing = "ij", .sparse = true});   // (3, 1) and (1, 2)
    auto views = cupp::meshgrid({x, y}, {.copy = false}); // read-only broadcast views of x and y
    // [end snippet]
    if (xy.size() != 2) return fail("meshgrid's count"), 1;
    expect(xy[0], cupp::int64, {2, 3}, i64{1, 2, 3, 1, 2, 3}, "meshgrid xy[0]");
    expect(xy[1], cupp::int64, {2, 3}, i64{10, 10, 10, 20, 20, 20}, "meshgrid xy[1]");
    expect(ij[0], cupp::int64, {3, 1}, i64{1, 2, 3}, "sparse ij meshgrid [0]");
    expect(ij[1], cupp::int64, {1, 2}, i64{10, 20}, "sparse ij meshgrid [1]");
    expect(views[1], cupp::int64, {2, 3}, i64{10, 10, 10, 20, 20, 20}, "meshgrid views [1]");
    if (views[0].writeable() || views[0].base() != x.base()) fail("meshgrid with copy = false gives views");
    expect_throws<cupp::ValueError>([&] { cupp::meshgrid({x, y}, {.indexing = "yx"}); }, "meshgrid indexing yx");
  }
  {
    // [snippet indices]
    auto grid = cupp::indices({2, 3});                    // (2, 2, 3) int64
    // grid[0] = [[0, 0, 0], [1, 1, 1]] (the row index), grid[1] = [[0, 1, 2], [0, 1, 2]]
    const std::int64_t dims[] = {2, 3};                   // (indices_sparse takes a span)
    auto parts = cupp::indices_sparse(dims, cupp::int32); // (2, 1) and (1, 3)
    // [end snippet]
    expect(grid, cupp::int64, {2, 2, 3}, i64{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2}, "indices({2, 3})");
    if (parts.size() != 2) return fail("indices_sparse's count"), 1;
    expect(parts[0], cupp::int32, {2, 1}, std::vector<std::int32_t>{0, 1}, "indices_sparse [0]");
    expect(parts[1], cupp::int32, {1, 3}, std::vector<std::int32_t>{0, 1, 2}, "indices_sparse [1]");
  }
  {
    // [snippet fromfunction_options]
    auto sum = cupp::fromfunction([](std::span<const cupp::ndarray> ij) { return cupp::add(ij[0], ij[1]); },
                                  {2, 3}, {.dtype = cupp::int32, .sparse = true});   // [[0, 1, 2], [1, 2, 3]]
    // [end snippet]
    expect(sum, cupp::int32, {2, 3}, std::vector<std::int32_t>{0, 1, 2, 1, 2, 3}, "fromfunction with sparse indices");
  }
  {
    // [snippet fromfunction]
    cupp::ElementwiseKernel f("T r, T c", "T z", "z = r * 10 + c", "f");
    auto a = cupp::fromfunction([&](std::span<const cupp::ndarray> rc) { return f(rc[0], rc[1]); }, {3, 4});
    // [end snippet]
    expect(a, cupp::float64, {3, 4}, f64{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}, "fromfunction with an ElementwiseKernel");
  }
  if (failures != 0) return 1;
  std::puts("creation: all checks passed");
  return 0;
}

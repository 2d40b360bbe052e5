// scipy.sparse.random / random_array through cupp::random: round(density * m * n) distinct
// positions drawn uniformly without replacement (a small population by the generator's choice;
// a large one by drawing candidates, keeping the distinct ones and taking a random subset of the
// wanted size, which is uniform over subsets by symmetry), then SciPy's default values per dtype.
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/random.hpp"
#include "cupp/searching.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "primitives.hpp"

namespace cupp::sparse {

namespace detail {
void check_shape(shape2 s);  // compressed.cpp
}  // namespace detail

namespace {

// Distinct positions in [0, total), k of them, in random order.
ndarray distinct_positions(random::Generator& gen, std::int64_t total, std::int64_t k) {
  constexpr std::int64_t small_population = std::int64_t{1} << 24;
  if (total <= small_population || 4 * k > total) return gen.choice(total, k, /*replace=*/false);
  ndarray found = cupp::empty({0}, int64);
  while (found.size() < k) {
    const std::int64_t want = k - found.size();
    const ndarray draw = gen.integers(std::int64_t{0}, total, want + want / 8 + 64, int64);
    found = cupp::unique(cupp::concatenate({found, draw}));
  }
  if (found.size() == k) return cupp::take(found, gen.permutation(k));
  return cupp::take(found, gen.permutation(found.size())(cupp::slice(std::nullopt, k)));
}

// SciPy's default data sampler of a dtype, k values.
ndarray values_for(random::Generator& gen, const cupp::dtype& t, std::int64_t k) {
  if (t == bool_) return cupp::ones({k}, bool_);  // uniform [0, 1) cast to bool
  if (t.is_integer()) {
    const iinfo_t info = iinfo(t);
    // [min, max): the largest value is excluded, as SciPy's rng_integers(min, max)
    return gen.integers(operand(weak_scalar(info.min)), operand(weak_scalar(info.max)), k, t);
  }
  if (t.is_complex()) {
    const ndarray re = gen.random(k), im = gen.random(k);
    return cupp::astype(cupp::add(re, cupp::multiply(im, std::complex<double>(0.0, 1.0))), t);
  }
  if (t == float32) return gen.random(k, float32);
  if (t == float64) return gen.random(k, float64);
  throw ValueError("scipy.sparse does not support dtype " + t.name() + " for random");
}

coo random_of(shape2 shape, const random_options& opts, sparse::kind kind) {
  detail::check_shape(shape);
  if (!(opts.density >= 0 && opts.density <= 1)) throw ValueError("density expected to be 0 <= density <= 1");
  detail::require_value_dtype(opts.dtype);
  const auto [m, n] = shape;
  const double total_d = static_cast<double>(m) * static_cast<double>(n);
  if (total_d > 9.2e18) throw ValueError("random: m * n must fit int64");
  const std::int64_t total = m * n;
  const auto k = static_cast<std::int64_t>(std::nearbyint(opts.density * total_d));  // round half to even
  random::Generator gen(opts.seed ? random::Philox(*opts.seed) : random::Philox());
  const cupp::dtype idx = detail::index_dtype_for(std::max(m, n));
  if (k == 0)
    return coo::from_parts(cupp::empty({0}, opts.dtype), cupp::empty({0}, idx), cupp::empty({0}, idx), shape, kind,
                           true);
  const ndarray flat = distinct_positions(gen, total, k);
  const ndarray values = values_for(gen, opts.dtype, k);
  const ndarray row = detail::as_index(cupp::floor_divide(flat, n), idx);
  const ndarray col = detail::as_index(cupp::remainder(flat, n), idx);
  return coo::from_parts(values, row, col, shape, kind, std::nullopt);
}

}  // namespace

coo random(std::int64_t m, std::int64_t n, const random_options& opts) { return random_of({m, n}, opts, kind::matrix); }
coo random_array(shape2 shape, const random_options& opts) { return random_of(shape, opts, kind::array); }

}  // namespace cupp::sparse

// Relative tolerances of float comparisons in the reference tests: each test states its four
// figures as data (float16, bfloat16, float32/complex64, float64/complex128); integers and bool
// compare exactly (0).
#pragma once

#include "cupp/dtype.hpp"

namespace cupp::test {

struct float_tolerances {
  double float16 = 0;
  double bfloat16 = 0;
  double float32 = 0;  // and complex64
  double float64 = 0;  // and complex128
};

inline double tolerance_of(const dtype& t, const float_tolerances& f) {
  switch (t.id()) {
    case type_id::float16: return f.float16;
    case type_id::bfloat16: return f.bfloat16;
    case type_id::float32:
    case type_id::complex64: return f.float32;
    case type_id::float64:
    case type_id::complex128: return f.float64;
    default: return 0.0;
  }
}

}  // namespace cupp::test

// What tools know of a routine: its name, its NumPy signature as cupp accepts it and a one-line
// summary. Each routine family's header lists its routines (creation_routines(),
// reduction_routines(), ...); `cupp ops` prints them.
#pragma once

namespace cupp {

struct routine_info {
  const char* name;
  const char* signature;  // NumPy's, as cupp accepts it
  const char* summary;
};

}  // namespace cupp

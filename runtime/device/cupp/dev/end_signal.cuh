// The device half of a raising kernel's end signal (runtime/src/compiler/report_word.hpp): every
// thread of every block calls cupp_end_block(counter, word) after the block's last report.
#pragma once

// The end signal (compiler/report_word.hpp): each block counts itself once all its threads are
// here; the block that completes the count resets the counter for the slot's next kernel and sets
// the host word. A thread that reports fences (system scope) after its report, before the
// barrier, so the host sees the report once it sees the word; no block fences otherwise (a fence
// in every block cost 1-2 us of a 1.5 ms take on the H200).
__device__ inline void cupp_end_block(unsigned int* counter, unsigned int* word) {
  if (word == nullptr) return;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    if (atomicAdd(counter, 1u) == blocks - 1u) {
      *counter = 0u;
      __threadfence_system();
      *(volatile unsigned int*)word = 1u;
    }
  }
}

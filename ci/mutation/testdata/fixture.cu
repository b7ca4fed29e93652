// Fixture of the mutant generator's tests (test_mutation.py): one instance of every construct an
// operator mutates, beside look-alikes no operator may touch. Parsed, never compiled.
#include <cuda/atomic>
#define FIXTURE_LIMIT (1 < 2)

template <unsigned N = 4>
__global__ void fixture_kernel(const int* in, unsigned* counter, int n) {
  __shared__ volatile int cache[64];
  static_assert(sizeof(int) == 4, "a < b in a literal");
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;  // a < b in a comment
  if (i >= n) return;
  cache[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  int total = static_cast<int>(cache[0]);
  const SumOp<int> op;
  total = op(max(total, n), cache[i + 1]);
  for (unsigned s = 1; s < gridDim.x; s *= 2) total += cache[s];
  __threadfence();
  if (total > 3 && i == 0) atomicAdd(counter, 2u);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*counter);
  ticket.fetch_add(1u, cuda::memory_order_acq_rel);
  const long long wide = total * 2 - 1;
  if (wide != 0 || total < 0) cache[1] = 0;
}

template <class OpT, class In, class Out>
__global__ void fixture_widening_kernel(const In* in, Out* out) {
  Out* partial = dynamic_shared<Out>();
  partial[0] = Out(*in);
  const Out total = partial[0];
  *out = static_cast<Out>(total);
}

struct Fixture {
  static std::uint64_t max_length(int block) { return block * 2; }
  static std::size_t shared_bytes(int block) { return std::size_t(block) * sizeof(int); }
  static void run(const int* in, unsigned* counter, int n) {
    const std::uint64_t blocks = n / 256;
    launch_kernel(label, &fixture_kernel<4>, blocks, 256, shared_bytes(256), stream, in, counter, n);
  }
};

const bool registered = register_variant(make_fixture_variant<Fixture>({.name = "fixture", .block_sizes = {1, 2, 1}}));

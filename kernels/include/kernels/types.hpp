// The vocabulary shared by every family: which family, which element types, which operation.
#pragma once

#include <kernels/operators.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kernels {

enum class Family { reduce, scan, sort };
inline constexpr std::array kAllFamilies{Family::reduce, Family::scan, Family::sort};

// The one list of element types: the key, the C++ type a primitive reads, the one it produces, and the name that
// tests, ctest labels (cmake/KernelsTesting.cmake) and kcheck use. Adding a type: one line here plus what is its
// own (docs/semantics.md). The groups say which families take a type (family_takes below):
// every family: scans, reductions and sorts.
#define KERNELS_FOR_EACH_SCAN_TYPE(X)                          \
  X(int32, int, int, int)                                      \
  X(uint32, unsigned, unsigned, unsigned)                      \
  X(int64, long long, long long, longlong)                     \
  X(uint64, unsigned long long, unsigned long long, ulonglong) \
  X(float16, __half, __half, half)                             \
  X(bfloat16, __nv_bfloat16, __nv_bfloat16, bfloat16)          \
  X(float32, float, float, float)                              \
  X(float64, double, double, double)
// 8- and 16-bit integers: reductions and sorts. Their scans would wrap within a few hundred
// elements, which tests nothing a 32-bit scan's wrapping does not.
#define KERNELS_FOR_EACH_SHORT_INTEGER_TYPE(X)  \
  X(int8, signed char, signed char, int8)       \
  X(uint8, unsigned char, unsigned char, uint8) \
  X(int16, short, short, int16)                 \
  X(uint16, unsigned short, unsigned short, uint16)
#define KERNELS_FOR_EACH_ELEMENT_TYPE(X) \
  KERNELS_FOR_EACH_SCAN_TYPE(X)          \
  KERNELS_FOR_EACH_SHORT_INTEGER_TYPE(X)
// The widening keys read one type and accumulate (and return) a wider one: reductions' sum only.
#define KERNELS_FOR_EACH_WIDENING_TYPE(X)             \
  X(int32_to_int64, int, long long, int_to_longlong)  \
  X(float16_to_float32, __half, float, half_to_float) \
  X(bfloat16_to_float32, __nv_bfloat16, float, bfloat16_to_float)
#define KERNELS_FOR_EACH_TYPE(X)   \
  KERNELS_FOR_EACH_ELEMENT_TYPE(X) \
  KERNELS_FOR_EACH_WIDENING_TYPE(X)

#define KERNELS_TYPE_KEY_ENUMERATOR(key, in, out, label) key,
enum class TypeKey { KERNELS_FOR_EACH_TYPE(KERNELS_TYPE_KEY_ENUMERATOR) };
#undef KERNELS_TYPE_KEY_ENUMERATOR
#define KERNELS_TYPE_KEY_VALUE(key, in, out, label) TypeKey::key,
inline constexpr std::array kAllTypeKeys{KERNELS_FOR_EACH_TYPE(KERNELS_TYPE_KEY_VALUE)};
#undef KERNELS_TYPE_KEY_VALUE
inline constexpr int kTypeKeyCount = static_cast<int>(kAllTypeKeys.size());

// The binary operators of reductions and scans: the suite's, from the one list in kernels/operators.hpp, then
// those variant libraries register at run time (kernels/operator_registry.hpp), numbered after them. The library's
// ABI does not depend on how many there are: no table is sized by them.
#define KERNELS_OP_ENUMERATOR(key, descriptor) key,
enum class Op : int { KERNELS_FOR_EACH_OP(KERNELS_OP_ENUMERATOR) };
#undef KERNELS_OP_ENUMERATOR
#define KERNELS_OP_VALUE(key, descriptor) Op::key,
inline constexpr std::array kBuiltinOps{KERNELS_FOR_EACH_OP(KERNELS_OP_VALUE)};
#undef KERNELS_OP_VALUE
inline constexpr int kBuiltinOpCount = static_cast<int>(kBuiltinOps.size());

constexpr bool is_builtin(Op op) { return static_cast<int>(op) >= 0 && static_cast<int>(op) < kBuiltinOpCount; }

// Whether a suite's op is commutative, at compile time; is_commutative() below answers for every op.
constexpr bool builtin_commutative(Op op) {
#define KERNELS_OP_COMMUTATIVE(key, descriptor) \
  if (op == Op::key) return descriptor::kCommutative;
  KERNELS_FOR_EACH_OP(KERNELS_OP_COMMUTATIVE)
#undef KERNELS_OP_COMMUTATIVE
  return false;
}

// Every op known now, the suite's first; whether op(a, b) == op(b, a) for all a, b (a variant that does not keep
// operand order requires it); whether it takes a type. Registered ops included.
std::vector<Op> all_ops();
bool is_commutative(Op op);
bool operator_takes(Op op, TypeKey type);

// The descriptor behind a suite's op (kernels/operators/), for code that instantiates per op.
template <Op op>
struct operator_of;
#define KERNELS_OPERATOR_OF(key, descriptor) \
  template <>                                \
  struct operator_of<Op::key> {              \
    using type = descriptor;                 \
  };
KERNELS_FOR_EACH_OP(KERNELS_OPERATOR_OF)
#undef KERNELS_OPERATOR_OF
template <Op op>
using operator_of_t = typename operator_of<op>::type;

// The two scans: inclusive[i] = x0 + ... + xi; exclusive[0] = 0 and exclusive[i] = inclusive[i-1].
enum class ScanKind { inclusive, exclusive };
inline constexpr std::array kAllScanKinds{ScanKind::inclusive, ScanKind::exclusive};

// The two forms of a sort: keys alone, or keys carrying a value each (the original index).
enum class SortForm { keys, pairs };
inline constexpr std::array kAllSortForms{SortForm::keys, SortForm::pairs};

// Names as they appear in test names, ctest labels and on the kcheck command line.
std::string_view name(Family family);
std::string_view name(TypeKey type);
std::string_view name(Op op);
std::string_view name(ScanKind kind);
std::string_view name(SortForm form);

std::optional<Family> parse_family(std::string_view text);
std::optional<TypeKey> parse_type(std::string_view text);
std::optional<Op> parse_op(std::string_view text);
std::optional<ScanKind> parse_scan_kind(std::string_view text);
std::optional<SortForm> parse_sort_form(std::string_view text);

constexpr int index_of(TypeKey type) { return static_cast<int>(type); }
constexpr int index_of(Op op) { return static_cast<int>(op); }
constexpr int index_of(ScanKind kind) { return static_cast<int>(kind); }
constexpr int index_of(SortForm form) { return static_cast<int>(form); }

#define KERNELS_TYPE_IS_LISTED(key, in_type, out_type, label) \
  if (type == TypeKey::key) return true;
// The widening keys: input and output types differ.
constexpr bool is_widening(TypeKey type) {
  KERNELS_FOR_EACH_WIDENING_TYPE(KERNELS_TYPE_IS_LISTED)
  return false;
}
// The types every family takes, scans included.
constexpr bool is_scan_type(TypeKey type) {
  KERNELS_FOR_EACH_SCAN_TYPE(KERNELS_TYPE_IS_LISTED)
  return false;
}
#undef KERNELS_TYPE_IS_LISTED

// Whether a suite's op takes elements of the key's type, at compile time: its descriptor's kTakes for the input
// type (kernels/operators/); the widening keys are the sum's alone.
template <class T>
constexpr bool builtin_takes_type(Op op) {
#define KERNELS_OP_TAKES(key, descriptor) \
  if (op == Op::key) return descriptor::template kTakes<T>;
  KERNELS_FOR_EACH_OP(KERNELS_OP_TAKES)
#undef KERNELS_OP_TAKES
  return false;
}
constexpr bool builtin_takes(Op op, TypeKey type) {
  if (is_widening(type)) return op == Op::sum;
#define KERNELS_TYPE_TAKES(key, in_type, out_type, label) \
  if (type == TypeKey::key) return builtin_takes_type<in_type>(op);
  KERNELS_FOR_EACH_ELEMENT_TYPE(KERNELS_TYPE_TAKES)
#undef KERNELS_TYPE_TAKES
  return false;
}

// Maps the C++ types of a call to its key. Only the combinations listed exist.
template <class In, class Out>
struct type_key_of;
#define KERNELS_TYPE_KEY_OF(key, in_type, out_type, label) \
  template <>                                              \
  struct type_key_of<in_type, out_type> {                  \
    static constexpr TypeKey value = TypeKey::key;         \
  };
KERNELS_FOR_EACH_TYPE(KERNELS_TYPE_KEY_OF)
#undef KERNELS_TYPE_KEY_OF

template <class In, class Out = In>
inline constexpr TypeKey type_key_v = type_key_of<In, Out>::value;

// The reverse mapping: the input and output C++ types behind a key.
template <TypeKey type>
struct types_of;
#define KERNELS_TYPES_OF(key, in_type, out_type, label) \
  template <>                                           \
  struct types_of<TypeKey::key> {                       \
    using in = in_type;                                 \
    using out = out_type;                               \
  };
KERNELS_FOR_EACH_TYPE(KERNELS_TYPES_OF)
#undef KERNELS_TYPES_OF

// Whether a family takes a type at all (the groups of the lists above): reductions every key,
// scans the scan types, sorts every element type.
constexpr bool family_takes(Family family, TypeKey type) {
  switch (family) {
    case Family::reduce: return true;
    case Family::scan: return is_scan_type(type);
    case Family::sort: return !is_widening(type);
  }
  return false;
}

// Calls f(In{}, Out{}) for the C++ types behind a run-time key, to reach a template instantiated for them.
// visit_scan_type and visit_element_type take only their families' keys (f is instantiated for no other type)
// and throw std::invalid_argument for the rest.
namespace detail {
// Lets `T{}` value-initialise a type of several words (`long long`); the public headers are C++17.
template <class T>
using named_t = T;
}  // namespace detail
#define KERNELS_VISIT_TYPE(key, in_type, out_type, label) \
  if (type == TypeKey::key) return f(detail::named_t<in_type>{}, detail::named_t<out_type>{});
template <class F>
decltype(auto) visit_type(TypeKey type, F&& f) {
  KERNELS_FOR_EACH_TYPE(KERNELS_VISIT_TYPE)
  throw std::invalid_argument("no such type key");
}
template <class F>
decltype(auto) visit_scan_type(TypeKey type, F&& f) {
  KERNELS_FOR_EACH_SCAN_TYPE(KERNELS_VISIT_TYPE)
  throw std::invalid_argument(std::string(name(type)) + " is not a scan type");
}
template <class F>
decltype(auto) visit_element_type(TypeKey type, F&& f) {
  KERNELS_FOR_EACH_ELEMENT_TYPE(KERNELS_VISIT_TYPE)
  throw std::invalid_argument(std::string(name(type)) + " is not an element type");
}
#undef KERNELS_VISIT_TYPE

}  // namespace kernels

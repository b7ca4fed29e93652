// The vocabulary shared by every family: which family, which element types, which operation.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kernels {

enum class Family { reduce, scan, sort };
inline constexpr std::array kAllFamilies{Family::reduce, Family::scan, Family::sort};

// An element type key names the type a primitive reads and the type it produces. They differ
// only for the widening sum, which reads int and accumulates (and returns) long long.
enum class TypeKey { int32, uint32, int64, float32, float64, int32_to_int64 };
inline constexpr std::array kAllTypeKeys{TypeKey::int32,   TypeKey::uint32,  TypeKey::int64,
                                         TypeKey::float32, TypeKey::float64, TypeKey::int32_to_int64};
inline constexpr int kTypeKeyCount = static_cast<int>(kAllTypeKeys.size());

// Binary operations of the reductions (and, later, the scans).
enum class Op { sum, max, min };
inline constexpr std::array kAllOps{Op::sum, Op::max, Op::min};
inline constexpr int kOpCount = static_cast<int>(kAllOps.size());

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

// The widening type key supports only the sum: the max or min of ints is an int.
constexpr bool is_widening(TypeKey type) { return type == TypeKey::int32_to_int64; }

// Maps the C++ types of a call to its key. Only the combinations listed here exist.
template <class In, class Out>
struct type_key_of;
template <> struct type_key_of<int, int> { static constexpr TypeKey value = TypeKey::int32; };
template <> struct type_key_of<unsigned, unsigned> { static constexpr TypeKey value = TypeKey::uint32; };
template <> struct type_key_of<long long, long long> { static constexpr TypeKey value = TypeKey::int64; };
template <> struct type_key_of<float, float> { static constexpr TypeKey value = TypeKey::float32; };
template <> struct type_key_of<double, double> { static constexpr TypeKey value = TypeKey::float64; };
template <> struct type_key_of<int, long long> { static constexpr TypeKey value = TypeKey::int32_to_int64; };

template <class In, class Out = In>
inline constexpr TypeKey type_key_v = type_key_of<In, Out>::value;

// The reverse mapping: the input and output C++ types behind a key.
template <TypeKey type> struct types_of;
template <> struct types_of<TypeKey::int32> { using in = int; using out = int; };
template <> struct types_of<TypeKey::uint32> { using in = unsigned; using out = unsigned; };
template <> struct types_of<TypeKey::int64> { using in = long long; using out = long long; };
template <> struct types_of<TypeKey::float32> { using in = float; using out = float; };
template <> struct types_of<TypeKey::float64> { using in = double; using out = double; };
template <> struct types_of<TypeKey::int32_to_int64> { using in = int; using out = long long; };

// Calls f(In{}, Out{}) with value-initialised objects of the C++ types behind a run-time key,
// so that code holding a key can reach a template instantiated for those types.
template <class F>
decltype(auto) visit_type(TypeKey type, F&& f) {
  switch (type) {
    case TypeKey::int32: return f(int{}, int{});
    case TypeKey::uint32: return f(unsigned{}, unsigned{});
    case TypeKey::int64: return f(0LL, 0LL);
    case TypeKey::float32: return f(float{}, float{});
    case TypeKey::float64: return f(double{}, double{});
    case TypeKey::int32_to_int64: break;
  }
  return f(int{}, 0LL);
}

}  // namespace kernels

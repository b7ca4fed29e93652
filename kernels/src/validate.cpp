#include <kernels/detail/validate.hpp>
#include <kernels/errors.hpp>

#include <cstdint>
#include <sstream>
#include <string>

namespace kernels::detail {
namespace {

template <class Values>
std::string one_of(const Values& values) {
  std::ostringstream text;
  text << "supported: ";
  const char* separator = "";
  for (const auto& value : values) {
    text << separator << name(value);
    separator = ", ";
  }
  return text.str();
}

}  // namespace

void require_type(const VariantInfo& info, TypeKey type) {
  if (!info.supports(type)) throw ValidationError(info.id(), "type", std::string(name(type)), one_of(info.types()));
}

void require_op(const VariantInfo& info, TypeKey type, Op op) {
  if (info.refuses_for_order(op)) {
    throw ValidationError(info.id(), "op", std::string(name(op)),
                          "this variant combines out of input order and takes commutative operators only; " +
                              std::string(name(op)) + " is not commutative");
  }
  if (!info.supports(type, op)) {
    throw ValidationError(info.id(), "op", std::string(name(op)),
                          one_of(info.ops(type)) + " (for type " + std::string(name(type)) + ")");
  }
}

void require_kind(const VariantInfo& info, ScanKind kind) {
  if (!info.supports(kind)) throw ValidationError(info.id(), "kind", std::string(name(kind)), one_of(info.kinds));
}

void require_form(const VariantInfo& info, SortForm form) {
  if (!info.supports(form)) throw ValidationError(info.id(), "form", std::string(name(form)), one_of(info.forms));
}

int require_block_size(const VariantInfo& info, int requested) {
  if (!info.block_sizes.accepts(requested)) {
    throw ValidationError(info.id(), "block_size", std::to_string(requested), "must be " + info.block_sizes.describe());
  }
  return info.resolve_block_size(requested);
}

void require_length(const VariantInfo& info, TypeKey type, std::uint64_t n, int block_size) {
  const std::uint64_t limit = info.max_length_with(block_size);
  if (n > limit) {
    throw ValidationError(info.id(), "n", std::to_string(n),
                          "at most " + std::to_string(limit) + " with block_size " + std::to_string(block_size));
  }
  const std::uint64_t step = info.length_step(block_size, type);
  if (n % step != 0) {
    const char* what = info.length_multiple == LengthMultiple::block ? "the block size" : "the tile";
    throw ValidationError(info.id(), "n", std::to_string(n),
                          std::string("a multiple of ") + what + ", " + std::to_string(step) + ", with block_size " +
                              std::to_string(block_size));
  }
}

void require_pointer(const VariantInfo& info, const char* parameter, const void* pointer, std::size_t alignment) {
  if (pointer == nullptr) throw ValidationError(info.id(), parameter, "nullptr", "must point to device memory");
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  if (address % alignment != 0) {
    std::ostringstream value;
    value << pointer;
    throw ValidationError(info.id(), parameter, value.str(),
                          "must be aligned to its element size, " + std::to_string(alignment) + " bytes");
  }
}

void require_workspace(const VariantInfo& info, Workspace workspace, std::size_t required_bytes) {
  if (workspace.bytes < required_bytes) {
    throw ValidationError(info.id(), "workspace.bytes", std::to_string(workspace.bytes),
                          "needs at least " + std::to_string(required_bytes) + " bytes for this call");
  }
  if (required_bytes > 0 && workspace.data == nullptr) {
    throw ValidationError(info.id(), "workspace.data", "nullptr",
                          "must point to " + std::to_string(required_bytes) + " bytes of device memory");
  }
}

void require_disjoint(const VariantInfo& info, const char* parameter, const void* out, const void* in,
                      std::size_t bytes, bool in_place_allowed) {
  const auto out_begin = reinterpret_cast<std::uintptr_t>(out), in_begin = reinterpret_cast<std::uintptr_t>(in);
  if (bytes == 0) return;
  if (out_begin == in_begin) {
    if (in_place_allowed) return;
    throw ValidationError(info.id(), parameter, "the input pointer",
                          "this variant is not in-place: pass separate buffers");
  }
  if (out_begin < in_begin + bytes && in_begin < out_begin + bytes) {
    std::ostringstream value;
    value << out;
    throw ValidationError(info.id(), parameter, value.str(), "must not overlap the input");
  }
}

}  // namespace kernels::detail

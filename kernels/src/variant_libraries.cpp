#include <kernels/detail/library_load.hpp>
#include <kernels/registry.hpp>
#include <kernels/variant_libraries.hpp>

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace kernels {

VariantLibraryError::VariantLibraryError(std::string library, const std::string& why)
    : std::runtime_error("variant library '" + library + "': " + why), library_(std::move(library)) {}

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : "; ") + item;
  return text;
}

// Whether the ELF shared object at `path` defines `symbol` in its dynamic symbol table: read from the file, so that
// a library of another interface version is refused before its static initialisation could run.
bool defines_symbol(const std::string& path, const std::string& symbol) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  Elf64_Ehdr header;
  if (bytes.size() < sizeof header) return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return false;
  const auto section = [&](std::size_t index) {
    Elf64_Shdr entry{};
    const std::size_t at = header.e_shoff + index * sizeof(Elf64_Shdr);
    if (at + sizeof entry <= bytes.size()) std::memcpy(&entry, bytes.data() + at, sizeof entry);
    return entry;
  };
  for (std::size_t s = 0; s < header.e_shnum; ++s) {
    const Elf64_Shdr symbols = section(s);
    if (symbols.sh_type != SHT_DYNSYM) continue;
    const Elf64_Shdr names = section(symbols.sh_link);
    for (std::size_t at = symbols.sh_offset;
         at + sizeof(Elf64_Sym) <= symbols.sh_offset + symbols.sh_size && at + sizeof(Elf64_Sym) <= bytes.size();
         at += sizeof(Elf64_Sym)) {
      Elf64_Sym entry;
      std::memcpy(&entry, bytes.data() + at, sizeof entry);
      const std::size_t name_at = names.sh_offset + entry.st_name;
      if (entry.st_shndx != SHN_UNDEF && name_at < bytes.size() &&
          std::strncmp(bytes.data() + name_at, symbol.c_str(), bytes.size() - name_at) == 0)
        return true;
    }
  }
  return false;
}

// Every library loaded, by file name, and what it registered.
std::map<std::string, std::vector<std::string>>& loaded_by_file_name() {
  static std::map<std::string, std::vector<std::string>> loaded;
  return loaded;
}

// The variants registered by no loaded library: those this library holds itself.
std::vector<std::string> built_in_ids() {
  std::vector<std::string> ids;
  for (const VariantInfo* variant : all_variants()) {
    bool from_a_library = false;
    for (const auto& [name, registered] : loaded_by_file_name())
      from_a_library =
          from_a_library || std::find(registered.begin(), registered.end(), variant->id()) != registered.end();
    if (!from_a_library) ids.push_back(variant->id());
  }
  return ids;
}

}  // namespace

std::string kit_library_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&kit_library_path), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code error;
  return std::filesystem::canonical(info.dli_fname, error).string();
}

std::vector<std::string> load_variant_library(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw VariantLibraryError(path, "no such file");
  const std::string canonical = std::filesystem::canonical(path, error).string();
  const std::string file_name = std::filesystem::path(canonical).filename().string();
  if (file_name == std::filesystem::path(kit_library_path()).filename().string()) return built_in_ids();
  auto& loaded = loaded_by_file_name();
  if (const auto earlier = loaded.find(file_name); earlier != loaded.end()) return earlier->second;
  const std::string mark = "kernels_variant_api_v" + std::to_string(KERNELS_VARIANT_API_VERSION);
  if (!defines_symbol(canonical, mark)) {
    throw VariantLibraryError(path, "not built against version " + std::to_string(KERNELS_VARIANT_API_VERSION) +
                                        " of the variant interface (no " + mark + " symbol; its variant files " +
                                        "include <kernels/variant/reduce.cuh>, scan.cuh or sort.cuh of this package)");
  }
  detail::begin_library_load();
  // RTLD_NOW: a missing symbol fails here, not at a variant's first call; RTLD_GLOBAL: one registry for all.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_GLOBAL);
  const char* why = handle == nullptr ? dlerror() : nullptr;
  detail::LibraryRegistrations made = detail::end_library_load();
  if (handle == nullptr) throw VariantLibraryError(path, std::string("does not load: ") + (why ? why : "?"));
  if (!made.refused.empty()) throw VariantLibraryError(path, "a record refused: " + joined(made.refused));
  if (made.registered.empty()) throw VariantLibraryError(path, "registers no variant");
  return loaded[file_name] = made.registered;
}

}  // namespace kernels

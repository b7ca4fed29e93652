// Each family registers its rows (family/variant/type/n) for every variant in the registry.
#pragma once

namespace bench {

void register_reduce_rows();
void register_scan_rows();
void register_sort_rows();

}  // namespace bench

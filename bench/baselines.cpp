#include "baselines.hpp"

#include <map>

namespace bench {

double memoized_ms(const std::string& key, const std::function<double()>& measure) {
  static std::map<std::string, double> measured;
  const auto known = measured.find(key);
  if (known != measured.end()) return known->second;
  return measured.emplace(key, measure()).first->second;
}

}  // namespace bench

// SPDX-License-Identifier: Apache-2.0
#include "core/header_keys.h"

#include <map>
#include <mutex>
#include <string>

namespace dromedary {

const HeaderKey& internHeaderKey(std::string_view name) {
  static std::mutex* mutex = new std::mutex();
  // Lives through exit (steps of static contexts may name keys while they are destroyed);
  // map nodes never move.
  static auto* keys = new std::map<std::string, HeaderKey, std::less<>>();
  std::lock_guard lock(*mutex);
  auto it = keys->find(name);
  if (it == keys->end()) it = keys->emplace(std::string(name), HeaderKey(std::string(name))).first;
  return it->second;
}

}  // namespace dromedary

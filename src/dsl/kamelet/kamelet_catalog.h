// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where Kamelets are found, first match wins: the load's own files (`kind: Kamelet` among the
// route files), then each folder of the properties `dromedary.kamelets` (what `dromedary run
// --kamelets DIR` sets) and `camel.component.kamelet.location` (comma lists; `file:` prefixes
// allowed; Camel's `classpath:kamelets` names the shipped ones), then the Kamelets Dromedary
// ships (kamelets/
// in the repository, built into the binary). A folder's Kamelet NAME is its file
// NAME.kamelet.yaml, read when first used.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <dromedary/core/result.h>

#include "dsl/file_source.h"

namespace dromedary {
class Context;
}

namespace dromedary::dsl {

/// A Kamelet shipped in the binary: its name and its file's text.
struct ShippedKamelet {
  std::string_view name;
  std::string_view text;
};

/// The shipped Kamelets, by name (generated from kamelets/*.kamelet.yaml at build time).
const std::vector<ShippedKamelet>& shippedKamelets();

class KameletCatalog {
 public:
  KameletCatalog(Context& context, const std::vector<KameletSource>& own);

  /// The Kamelet called `name`, read on first use; null when there is none (see names()).
  /// An error when the file found does not read.
  Result<const KameletSource*> find(std::string_view name);

  /// Every Kamelet name that can be found, each once, sorted.
  std::vector<std::string> names() const;

  /// Where `name` is found: a file, "the route files" or "shipped"; empty when nowhere.
  std::string origin(std::string_view name) const;

 private:
  struct Location {
    std::string folder;  ///< empty: the shipped Kamelets
  };
  Result<const KameletSource*> readFrom(std::string_view text, const std::string& file,
                                        std::string_view name);
  std::string fileIn(const Location& location, std::string_view name) const;

  std::map<std::string, const KameletSource*, std::less<>> found_;
  std::vector<std::unique_ptr<FileSources>> read_;  // what found_ points into, for files read
  std::vector<Location> locations_;
};

}  // namespace dromedary::dsl

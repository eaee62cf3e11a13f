// SPDX-License-Identifier: Apache-2.0
#pragma once

// Options given as name -> value (a data format's, a language's) checked against an option
// table as endpoint options are: names in any case, types, enum values, and errors that say
// which closest name was meant, about `subject` ("the json data format").

#include <map>
#include <span>
#include <string>
#include <string_view>

#include <dromedary/core/result.h>
#include <dromedary/spi/option_table.h>

namespace dromedary::component::json {

Result<EndpointOptions> resolveOptions(std::span<const OptionSpec> specs,
                                       const std::map<std::string, std::string, std::less<>>& options,
                                       std::string_view subject);

}  // namespace dromedary::component::json

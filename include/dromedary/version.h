// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace dromedary {
/// The library version, "major.minor.patch".
inline constexpr const char* kVersion = "0.1.0";
}  // namespace dromedary

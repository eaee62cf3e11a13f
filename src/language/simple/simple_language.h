// SPDX-License-Identifier: Apache-2.0
#pragma once

// The "simple" language, registered in every context (see docs/simple.md for the syntax).

#include <memory>

#include <dromedary/spi/language.h>

namespace dromedary::simplelang {

std::unique_ptr<Language> makeSimpleLanguage();

}  // namespace dromedary::simplelang

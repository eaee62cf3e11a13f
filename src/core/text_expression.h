// SPDX-License-Identifier: Apache-2.0
#pragma once

// TextExpression: an expression whose result is always text built from parts (Simple's
// "premium-${header.kind}"). Besides evaluate(), it can append its text to a string the
// caller owns, so a step that stores the text (setHeader, setBody) renders it once into a
// buffer that keeps its capacity and hands the buffer over, instead of building a Value in
// one scratch and copying it through another.

#include <string>

#include <dromedary/spi/language.h>

namespace dromedary {

class TextExpression : public Expression {
 public:
  /// Appends the text to `out`. On failure records the error on `exchange` and returns
  /// false (`out` then holds a part of the text).
  virtual bool appendText(Exchange& exchange, std::string& out) const noexcept = 0;
  /// Makes `out` the text (whatever it held before: a header's last text, kept so that a
  /// text no longer than it is copied inline, detail::assignText). On failure as appendText.
  virtual bool assignText(Exchange& exchange, std::string& out) const noexcept {
    out.clear();
    return appendText(exchange, out);
  }
  /// Whether appendText may write straight into the text of header or property `target`:
  /// it reads neither `target` nor anything that can fail, so no part sees the text it is
  /// replacing and a failure cannot leave it half written. False unless known.
  virtual bool rendersBeside(const HeaderKey& target) const noexcept {
    (void)target;
    return false;
  }
};

}  // namespace dromedary

// SPDX-License-Identifier: Apache-2.0
#pragma once

// `dromedary eval simple EXPR`: evaluates an expression (or predicate) on a message built
// from the command line and prints the result, as Camel's CLI `camel eval expression` does.

#include <string>
#include <vector>

namespace dromedary::cli {

struct EvalOptions {
  std::string language = "simple";
  std::string expression;
  std::string body;
  bool hasBody = false;
  std::vector<std::string> headers;     ///< "key=value"
  std::vector<std::string> properties;  ///< "key=value"
  bool predicate = false;
};

/// Prints the result on stdout (or the error on stderr); returns the exit code: 0 success,
/// 1 when the expression does not compile or fails on the message, 2 on bad arguments.
int runEval(const EvalOptions& options);

}  // namespace dromedary::cli

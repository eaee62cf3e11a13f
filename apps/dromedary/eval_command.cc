// SPDX-License-Identifier: Apache-2.0
#include "eval_command.h"

#include <cstdio>

#include <dromedary/dromedary.h>

namespace dromedary::cli {

namespace {

// "key=value" -> (key, value); false when there is no '=' or no key.
bool splitPair(const std::string& pair, std::string& key, std::string& value) {
  size_t eq = pair.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  key = pair.substr(0, eq);
  value = pair.substr(eq + 1);
  return true;
}

}  // namespace

int runEval(const EvalOptions& options) {
  setLogLevel(LoggingLevel::Warn);
  Context context;
  Language* language = context.language(options.language);
  if (!language) {
    std::fprintf(stderr, "dromedary: unknown language '%s'\n", options.language.c_str());
    return 2;
  }
  ExchangePtr exchange = acquireExchange(&context);
  if (options.hasBody) exchange->message().setBody(options.body);
  std::string key;
  std::string value;
  for (const std::string& h : options.headers) {
    if (!splitPair(h, key, value)) {
      std::fprintf(stderr, "dromedary: --header expects key=value, got '%s'\n", h.c_str());
      return 2;
    }
    exchange->message().setHeader(key, Value(value));
  }
  for (const std::string& p : options.properties) {
    if (!splitPair(p, key, value)) {
      std::fprintf(stderr, "dromedary: --property expects key=value, got '%s'\n", p.c_str());
      return 2;
    }
    exchange->setProperty(key, Value(value));
  }

  if (options.predicate) {
    auto predicate = language->createPredicate(options.expression, context);
    if (!predicate) {
      std::fprintf(stderr, "%s\n", predicate.error().message.c_str());
      return 1;
    }
    bool matched = (*predicate)->matches(*exchange);
    if (exchange->failed()) {
      std::fprintf(stderr, "%s\n", exchange->error().message().c_str());
      return 1;
    }
    std::printf("%s\n", matched ? "true" : "false");
    return 0;
  }
  auto expression = language->createExpression(options.expression, context);
  if (!expression) {
    std::fprintf(stderr, "%s\n", expression.error().message.c_str());
    return 1;
  }
  Value scratch;
  const Value* result = (*expression)->evaluate(*exchange, scratch);
  if (!result) {
    std::fprintf(stderr, "%s\n", exchange->error().message().c_str());
    return 1;
  }
  std::printf("%s\n", result->isNull() ? "null" : result->toString().c_str());
  return 0;
}

}  // namespace dromedary::cli

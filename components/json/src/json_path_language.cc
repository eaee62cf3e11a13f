// SPDX-License-Identifier: Apache-2.0
// Camel's jsonpath language: a JsonPath (json_path.h) on the body, or on a header or exchange
// property (headerName, propertyName, or Camel 4's source: header:NAME / property:NAME). The
// input is read as JSON when it is text or bytes, and walked as it is when it is maps and
// lists (after unmarshal). As a predicate: a list of matches is true when not empty, a value
// by Camel's rules (isTruthy). A definite path that does not match fails the exchange, unless
// suppressExceptions (then it is null).
#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/spi/language.h>
#include <dromedary/spi/option_table.h>

#include "json_input.h"
#include "json_language.h"
#include "json_options.h"
#include "json_path.h"
#include "json_text.h"

namespace dromedary::component::json {

namespace {

constexpr OptionSpec kOptions[] = {
    {"suppressExceptions", OptionType::Bool, "false",
     "A definite path that does not match gives null instead of failing"},
    {"headerName", OptionType::String, "", "Read this header instead of the body"},
    {"propertyName", OptionType::String, "", "Read this exchange property instead of the body"},
    {"source", OptionType::String, "",
     "Camel 4: body, header:NAME, property:NAME or variable:NAME"},
    {"resultType", OptionType::String, "",
     "Convert the result: String, Integer, Long, Double, Boolean (java.lang.* too); a map or "
     "list type leaves it as it is"},
    {"writeAsString", OptionType::Bool, "false", "Give maps and lists as JSON text"},
    {"unpack", OptionType::Bool, "false", "A list of one match gives the match itself"},
    {"allowSimple", OptionType::Bool, "true", "Accepted for Camel's files"},
    {"allowEasyPredicate", OptionType::Bool, "true",
     "As a predicate, `store.book.price < 10` means `$.store.book[?(@.price < 10)]`"},
    {"option", OptionType::String, "", "Accepted for Camel's files (Jayway options)"},
    {"trim", OptionType::Bool, "true", "Accepted for Camel's files"},
};

struct Settings {
  bool suppress = false;
  InputSource source;
  ResultType target = ResultType::None;
  bool writeAsString = false;
  bool unpack = false;
  bool easyPredicate = true;
};

class JsonPathExpression final : public Expression, public Predicate {
 public:
  JsonPathExpression(JsonPath path, Settings s) : path_(std::move(path)), s_(std::move(s)) {}

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      return evaluateOrFail(ex, scratch) ? &scratch : nullptr;
    } catch (...) {
      ex.fail(ErrorCode::InvalidExpression, "jsonpath evaluation failed");
      return nullptr;
    }
  }

  bool matches(Exchange& ex) const noexcept override {
    try {
      Value v;
      if (!evaluateOrFail(ex, v)) return false;
      if (v.isList()) return !v.getList().empty();
      return isTruthy(v);
    } catch (...) {
      ex.fail(ErrorCode::InvalidExpression, "jsonpath evaluation failed");
      return false;
    }
  }

 private:
  bool fail(Exchange& ex, std::string detail) const {
    ex.failWithDetail(ErrorCode::InvalidExpression, "jsonpath evaluation failed",
                      fmt::format("{} (jsonpath '{}')", detail, path_.text()));
    return false;
  }

  bool evaluateOrFail(Exchange& ex, Value& out) const {
    const Value* input = selectInput(ex, s_.source);
    Value parsed;
    if (!input || input->isNull()) {
      if (s_.suppress) {
        out = Value();
        return true;
      }
      return fail(ex, missingInput(s_.source));
    }
    Value file_text;
    try {
      input = readFileInput(input, file_text);
    } catch (const std::exception& e) {
      return fail(ex, e.what());
    }
    if (input->isString() || input->isBytes()) {
      auto read = readJson(input->isString() ? std::string_view(input->getString())
                                             : input->getBytes().view());
      if (!read) return fail(ex, read.error().message);
      parsed = std::move(*read);
      input = &parsed;
    }
    auto result = path_.evaluate(*input);
    if (!result) {
      if (s_.suppress) {
        out = Value();
        return true;
      }
      return fail(ex, result.error().message);
    }
    out = std::move(*result);
    if (s_.unpack && out.isList() && out.getList().size() == 1) out = Value(out.getList().front());
    if (s_.writeAsString && (out.isList() || out.isMap())) {
      std::string text;
      if (auto w = writeJson(out, text); !w) return fail(ex, w.error().message);
      out = Value(std::move(text));
    }
    return convert(ex, out);
  }

  bool convert(Exchange& ex, Value& v) const {
    if (auto converted = convertResult(v, s_.target); !converted) return fail(ex, converted.error().message);
    return true;
  }

  JsonPath path_;
  Settings s_;
};

Result<Settings> settings(const LanguageOptions& options) {
  DROMEDARY_TRY(resolved, resolveOptions(kOptions, options, "the jsonpath language"));
  const EndpointOptions& o = resolved;
  Settings s;
  s.suppress = o.getBool("suppressExceptions");
  s.writeAsString = o.getBool("writeAsString");
  s.unpack = o.getBool("unpack");
  s.easyPredicate = o.getBool("allowEasyPredicate");
  DROMEDARY_TRY(source, inputSource(o, "jsonpath"));
  s.source = std::move(source);
  DROMEDARY_TRY(target, resultType(o.getString("resultType"), "jsonpath"));
  s.target = target;
  return s;
}

Result<std::unique_ptr<JsonPathExpression>> compile(std::string_view text,
                                                    const LanguageOptions& options,
                                                    bool predicate) {
  DROMEDARY_TRY(s, settings(options));
  std::string_view trimmed = text;
  while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\n')) trimmed.remove_prefix(1);
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n')) trimmed.remove_suffix(1);
  std::string easy = predicate && s.easyPredicate ? easyPredicate(trimmed) : std::string(trimmed);
  DROMEDARY_TRY(path, JsonPath::compile(easy));
  return std::make_unique<JsonPathExpression>(std::move(path), std::move(s));
}

Result<std::unique_ptr<JsonPathExpression>> make(std::string_view text,
                                                 const LanguageOptions& options) {
  return compile(text, options, false);
}

Result<std::unique_ptr<JsonPathExpression>> makePredicate(std::string_view text,
                                                          const LanguageOptions& options) {
  return compile(text, options, true);
}

}  // namespace

std::unique_ptr<Language> makeJsonPathLanguage() {
  return std::make_unique<CompiledLanguage<JsonPathExpression>>(&make, &makePredicate);
}

}  // namespace dromedary::component::json

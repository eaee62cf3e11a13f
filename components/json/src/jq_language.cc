// SPDX-License-Identifier: Apache-2.0
// Camel's jq language on Debian's libjq: `jq: .items | map(.sku)` on the body (or a header or
// exchange property), compiled when the route starts. A jq program is not thread-safe once it
// runs, so each expression keeps a few compiled copies in slots taken and given back with one
// atomic exchange (no lock); a thread that finds none free compiles one more. The input goes
// to jq as JSON text (the body's own text, or maps and lists written as JSON), and each output
// comes back through the json reader: one output is the result, several a list, none null.
#include <array>
#include <atomic>

#include <fmt/format.h>

extern "C" {
#include <jq.h>
}

#include <dromedary/core/exchange.h>
#include <dromedary/spi/language.h>
#include <dromedary/spi/option_table.h>

#include "json_input.h"
#include "json_language.h"
#include "json_options.h"
#include "json_text.h"

namespace dromedary::component::json {

namespace {

constexpr OptionSpec kOptions[] = {
    {"headerName", OptionType::String, "", "Read this header instead of the body"},
    {"propertyName", OptionType::String, "", "Read this exchange property instead of the body"},
    {"source", OptionType::String, "",
     "Camel 4: body, header:NAME, property:NAME or variable:NAME"},
    {"resultType", OptionType::String, "",
     "Convert the result: String, Integer, Long, Double, Boolean; a map or list type (or "
     "JsonNode) leaves it as it is"},
    {"trim", OptionType::Bool, "true", "Accepted for Camel's files"},
};

struct JqProgram {
  jq_state* state = nullptr;
  std::string error;  // what compiling said
  ~JqProgram() {
    if (state) jq_teardown(&state);
  }
};

void collectError(void* data, jv message) {
  auto* out = static_cast<std::string*>(data);
  jv text = jv_get_kind(message) == JV_KIND_STRING ? jv_copy(message) : jv_dump_string(jv_copy(message), 0);
  if (!out->empty()) *out += "; ";
  *out += jv_string_value(text);
  jv_free(text);
  jv_free(message);
}

std::unique_ptr<JqProgram> compileJq(const std::string& text) {
  auto p = std::make_unique<JqProgram>();
  p->state = jq_init();
  if (!p->state) {
    p->error = "jq could not start";
    return p;
  }
  jq_set_error_cb(p->state, &collectError, &p->error);
  if (!jq_compile(p->state, text.c_str()) && p->error.empty()) p->error = "it does not compile";
  jq_set_error_cb(p->state, nullptr, nullptr);
  return p;
}

class JqExpression final : public Expression, public Predicate {
 public:
  JqExpression(std::string text, InputSource source, ResultType type, std::unique_ptr<JqProgram> first)
      : text_(std::move(text)), source_(std::move(source)), type_(type) {
    slots_[0].store(first.release(), std::memory_order_relaxed);
  }
  ~JqExpression() override {
    for (auto& slot : slots_) delete slot.exchange(nullptr);
  }

  const Value* evaluate(Exchange& ex, Value& scratch) const noexcept override {
    try {
      return run(ex, scratch) ? &scratch : nullptr;
    } catch (...) {
      ex.fail(ErrorCode::InvalidExpression, "jq evaluation failed");
      return nullptr;
    }
  }

  bool matches(Exchange& ex) const noexcept override {
    try {
      Value v;
      if (!run(ex, v)) return false;
      return isTruthy(v);
    } catch (...) {
      ex.fail(ErrorCode::InvalidExpression, "jq evaluation failed");
      return false;
    }
  }

 private:
  bool fail(Exchange& ex, std::string detail) const {
    ex.failWithDetail(ErrorCode::InvalidExpression, "jq evaluation failed",
                      fmt::format("{} (jq '{}')", detail, text_));
    return false;
  }

  // A compiled copy for this evaluation: a free slot's, or a new one.
  std::unique_ptr<JqProgram> take() const {
    for (auto& slot : slots_) {
      if (JqProgram* p = slot.exchange(nullptr, std::memory_order_acquire)) return std::unique_ptr<JqProgram>(p);
    }
    return compileJq(text_);
  }
  void giveBack(std::unique_ptr<JqProgram> p) const {
    for (auto& slot : slots_) {
      JqProgram* expected = nullptr;
      if (slot.compare_exchange_strong(expected, p.get(), std::memory_order_release)) {
        p.release();
        return;
      }
    }
  }

  bool run(Exchange& ex, Value& out) const {
    const Value* input = selectInput(ex, source_);
    if (!input || input->isNull()) return fail(ex, missingInput(source_));
    Value file_text;
    try {
      input = readFileInput(input, file_text);
    } catch (const std::exception& e) {
      return fail(ex, e.what());
    }
    std::string owned;
    std::string_view text;
    if (input->isString()) {
      text = input->getString();
    } else if (input->isBytes()) {
      text = input->getBytes().view();
    } else {
      if (auto w = writeJson(*input, owned); !w) return fail(ex, w.error().message);
      text = owned;
    }
    jv parsed = jv_parse_sized(text.data(), static_cast<int>(text.size()));
    if (!jv_is_valid(parsed)) {
      jv msg = jv_invalid_get_msg(parsed);
      std::string why = jv_get_kind(msg) == JV_KIND_STRING ? jv_string_value(msg) : "not JSON";
      jv_free(msg);
      return fail(ex, "invalid JSON: " + why);
    }
    std::unique_ptr<JqProgram> program = take();
    if (!program->state || !program->error.empty()) return fail(ex, program->error);
    jq_start(program->state, parsed, 0);  // takes `parsed`
    ValueList results;
    std::string error;
    for (jv result = jq_next(program->state); ; result = jq_next(program->state)) {
      if (!jv_is_valid(result)) {
        if (jv_invalid_has_msg(jv_copy(result))) {
          jv msg = jv_invalid_get_msg(result);
          jv text_msg = jv_get_kind(msg) == JV_KIND_STRING ? msg : jv_dump_string(msg, 0);
          error = jv_string_value(text_msg);
          jv_free(text_msg);
        } else {
          jv_free(result);
        }
        break;
      }
      jv dumped = jv_dump_string(result, 0);  // takes `result`
      auto value = readJson(jv_string_value(dumped));
      jv_free(dumped);
      if (!value) {
        error = value.error().message;
        break;
      }
      results.push_back(std::move(*value));
    }
    giveBack(std::move(program));
    if (!error.empty()) return fail(ex, error);
    if (results.empty()) {
      out = Value();
    } else if (results.size() == 1) {
      out = std::move(results.front());
    } else {
      out = Value(std::move(results));
    }
    if (auto converted = convertResult(out, type_); !converted) return fail(ex, converted.error().message);
    return true;
  }

  std::string text_;
  InputSource source_;
  ResultType type_;
  mutable std::array<std::atomic<JqProgram*>, 8> slots_{};
};

Result<std::unique_ptr<JqExpression>> make(std::string_view text, const LanguageOptions& options) {
  DROMEDARY_TRY(o, resolveOptions(kOptions, options, "the jq language"));
  DROMEDARY_TRY(source, inputSource(o, "jq"));
  DROMEDARY_TRY(type, resultType(o.getString("resultType"), "jq"));
  std::string program(text);
  auto compiled = compileJq(program);
  if (!compiled->state || !compiled->error.empty()) {
    return makeError(ErrorCode::InvalidExpression,
                     fmt::format("jq '{}' does not compile: {}", program, compiled->error));
  }
  return std::make_unique<JqExpression>(std::move(program), std::move(source), type, std::move(compiled));
}

}  // namespace

std::unique_ptr<Language> makeJqLanguage() {
  return std::make_unique<CompiledLanguage<JqExpression>>(&make);
}

}  // namespace dromedary::component::json

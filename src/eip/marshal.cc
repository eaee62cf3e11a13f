// SPDX-License-Identifier: Apache-2.0
// marshal / unmarshal: the body through a data format (spi/data_format.h). The format is found
// by name and made from the step's options when the route starts, so an unknown format or a
// bad option fails the start naming it; per message the step is one virtual call.
#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/spi/data_format.h>

#include "core/text.h"
#include "eip/eip_schema.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "engine/variables.h"

namespace dromedary::eip {

namespace {

class MarshalStep : public Step {
 public:
  MarshalStep(std::unique_ptr<DataFormat> format, bool unmarshal)
      : format_(std::move(format)), unmarshal_(unmarshal) {}

  Status run(Exchange& ex) noexcept override {
    const bool ok = unmarshal_ ? format_->unmarshal(ex) : format_->marshal(ex);
    return ok ? Status::Continue : Status::Fail;
  }
  bool mayBlock() const noexcept override { return false; }

 protected:
  std::unique_ptr<DataFormat> format_;
  bool unmarshal_;
};

// Camel 4's variableSend / variableReceive: the format reads the variable instead of the body,
// and its result goes to the other variable, the body left as it was. The data format works
// on the message's body, so the step swaps the values in and out (shares, not copies).
class MarshalVariablesStep final : public MarshalStep {
 public:
  MarshalVariablesStep(std::unique_ptr<DataFormat> format, bool unmarshal,
                       std::optional<detail::VariableName> send,
                       std::optional<detail::VariableName> receive)
      : MarshalStep(std::move(format), unmarshal), send_(std::move(send)),
        receive_(std::move(receive)) {}

  Status run(Exchange& ex) noexcept override {
    try {
      Value original = ex.message().body();
      if (send_) {
        Value input;
        detail::readVariable(ex, *send_, input);
        ex.message().setBody(std::move(input));
      }
      const bool ok = unmarshal_ ? format_->unmarshal(ex) : format_->marshal(ex);
      if (receive_) {
        if (ok) detail::writeVariable(ex, *receive_, ex.message().body());
        ex.message().setBody(std::move(original));
      }
      return ok ? Status::Continue : Status::Fail;
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
  }

 private:
  std::optional<detail::VariableName> send_, receive_;
};

}  // namespace

Result<std::unique_ptr<Step>> MarshalModel::compile(RouteCompiler& compiler) const {
  const DataFormatFactory* factory = compiler.context().dataFormat(format);
  if (!factory) {
    std::vector<std::string> known = compiler.context().dataFormatNames();
    std::vector<std::string_view> names(known.begin(), known.end());
    std::string meant = closestMatch(format, names);
    return compiler.error(
        *this, makeError(ErrorCode::InvalidRoute,
                         fmt::format("unknown data format '{}'; {}", format,
                                     !meant.empty() ? fmt::format("did you mean '{}'?", meant)
                                     : known.empty()
                                         ? std::string("this build has none")
                                         : fmt::format("this build has: {}", joinNames(names)))));
  }
  auto made = factory->create(compiler.context(), options);
  if (!made) return compiler.error(*this, made.error());
  if (variableSend.empty() && variableReceive.empty()) {
    return std::unique_ptr<Step>(new MarshalStep(std::move(*made), unmarshal));
  }
  std::optional<detail::VariableName> send, receive;
  for (auto [text, slot] : {std::pair{&variableSend, &send}, {&variableReceive, &receive}}) {
    if (text->empty()) continue;
    auto name = detail::parseVariableName(*text);
    if (!name) return compiler.error(*this, name.error());
    *slot = std::move(*name);
  }
  return std::unique_ptr<Step>(
      new MarshalVariablesStep(std::move(*made), unmarshal, std::move(send), std::move(receive)));
}

// The file DSLs' schemas: a marshal or unmarshal holds one data format, a clause with its
// options. JSON's clause takes Camel's library names (jackson, gson ...) as aliases: one
// implementation serves them all.
namespace {
constexpr std::string_view kJsonAliases[] = {"jackson", "gson", "jsonb", "fastjson"};
constexpr std::string_view kJsonLibraries[] = {"Jackson", "Gson", "Johnzon", "Jsonb", "Fastjson"};
constexpr AttributeSchema kJsonAttributes[] = {
    {"library", AttributeType::Enum, "Jackson",
     "Camel's JSON library: accepted; one implementation serves them all", false, kJsonLibraries},
    {"prettyPrint", AttributeType::Boolean, "false", "marshal: indent the JSON text"},
    {"unmarshalType", AttributeType::Text, "",
     "unmarshal: a map or list type is honoured; a Java class is not (a warning says so)"},
    {"useList", AttributeType::Boolean, "false", "unmarshal: the JSON text must hold an array"},
    {"contentTypeHeader", AttributeType::Boolean, "true",
     "marshal: set Content-Type to application/json"},
    {"include", AttributeType::Text, "", "marshal: NON_NULL leaves out map entries whose value is null"},
    {"allowUnmarshallType", AttributeType::Boolean, "false", "Accepted for Camel's files"},
    {"disableFeatures", AttributeType::Text, "", "Accepted for Camel's files (Jackson features)"},
    {"enableFeatures", AttributeType::Text, "", "Accepted for Camel's files (Jackson features)"},
    {"autoDiscoverObjectMapper", AttributeType::Boolean, "false", "Accepted for Camel's files"},
};
constexpr ClauseSchema kDataFormatClauses[] = {
    {"json", "JSON text to maps, lists and values, and back", kJsonAttributes, {}, kJsonAliases},
};
constexpr AttributeSchema kMarshalAttributes[] = {
    {"variableSend", AttributeType::Text, "",
     "The variable read instead of the body (Camel 4)"},
    {"variableReceive", AttributeType::Text, "",
     "The variable the result goes to; the body stays as it was (Camel 4)"},
};
}  // namespace

extern const EipSchema kMarshalSchema{
    .key = "marshal",
    .description = "Turns the body into text or bytes through a data format (json)",
    .attributes = kMarshalAttributes,
    .clauses = "one data format: json (or Camel's jackson, gson, jsonb, fastjson)",
    .clauseSchemas = kDataFormatClauses,
};

extern const EipSchema kUnmarshalSchema{
    .key = "unmarshal",
    .description = "Turns text or bytes into a body through a data format (json: maps and lists)",
    .attributes = kMarshalAttributes,
    .clauses = "one data format: json (or Camel's jackson, gson, jsonb, fastjson)",
    .clauseSchemas = kDataFormatClauses,
};

}  // namespace dromedary::eip

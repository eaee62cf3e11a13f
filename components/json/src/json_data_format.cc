// SPDX-License-Identifier: Apache-2.0
// The json data format: `unmarshal: {json: {}}` reads the body's JSON text into maps, lists and
// values (so Simple's ${body[customer][name]} reaches into it); `marshal: {json: {}}` writes
// them back as JSON text. Camel's library names (jackson, gson, jsonb, fastjson) are the same
// format: there are no Java classes to bind to, so unmarshalType is honoured only when it
// names a map or a list, and said to be ignored otherwise.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include <dromedary/core/exchange.h>
#include <dromedary/core/logging.h>
#include <dromedary/core/type_converter.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/data_format.h>
#include <dromedary/spi/language.h>

#include "field_transforms.h"
#include "json_options.h"
#include "json_text.h"

namespace dromedary {
namespace component::json {

namespace {

constexpr OptionSpec kOptions[] = {
    {"library", OptionType::Enum, "Jackson", "Camel's JSON library: accepted, one implementation",
     "Jackson,Gson,Johnzon,Jsonb,Fastjson"},
    {"prettyPrint", OptionType::Bool, "false", "marshal: indent the text as Jackson does"},
    {"unmarshalType", OptionType::String, "",
     "unmarshal: a map or list type is honoured (java.util.List: the text must hold an array)"},
    {"useList", OptionType::Bool, "false", "unmarshal: the text must hold an array"},
    {"contentTypeHeader", OptionType::Bool, "true", "marshal: set Content-Type to application/json"},
    {"include", OptionType::String, "", "marshal: NON_NULL leaves out map entries that are null"},
    {"allowUnmarshallType", OptionType::Bool, "false", "Accepted for Camel's files"},
    {"disableFeatures", OptionType::String, "", "Accepted for Camel's files"},
    {"enableFeatures", OptionType::String, "", "Accepted for Camel's files"},
    {"autoDiscoverObjectMapper", OptionType::Bool, "false", "Accepted for Camel's files"},
};

constexpr std::array<std::string_view, 8> kMapTypes = {
    "java.util.Map", "java.util.HashMap", "java.util.LinkedHashMap", "Map", "HashMap",
    "java.lang.Object", "Object", "com.fasterxml.jackson.databind.JsonNode"};
constexpr std::array<std::string_view, 4> kListTypes = {"java.util.List", "java.util.ArrayList",
                                                        "List", "ArrayList"};

struct Settings {
  JsonStyle style;
  bool useList = false;
  bool contentType = true;
};

class JsonDataFormat final : public DataFormat {
 public:
  explicit JsonDataFormat(Settings settings) : s_(settings) {}

  bool marshal(Exchange& ex) noexcept override {
    try {
      std::string text;
      if (auto written = writeJson(ex.message().body(), text, s_.style); !written) {
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot marshal the body to JSON",
                          written.error().message);
        return false;
      }
      ex.message().setBody(Value(std::move(text)));
      if (s_.contentType) ex.message().setHeader("Content-Type", Value("application/json"));
      return true;
    } catch (...) {
      ex.fail(ErrorCode::TypeConversion, "Cannot marshal the body to JSON");
      return false;
    }
  }

  bool unmarshal(Exchange& ex) noexcept override {
    try {
      const Value& body = ex.message().body();
      std::string owned;
      std::string_view text;
      if (body.isString()) {
        text = body.getString();
      } else if (body.isBytes()) {
        text = body.getBytes().view();
      } else if (body.isNull()) {
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot unmarshal JSON",
                          "the body is empty (null)");
        return false;
      } else {
        owned = body.toString();
        text = owned;
      }
      auto read = readJson(text);
      if (!read) {
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot unmarshal JSON", read.error().message);
        return false;
      }
      if (s_.useList && !read->isList()) {
        ex.failWithDetail(ErrorCode::TypeConversion, "Cannot unmarshal JSON",
                          fmt::format("a JSON array was expected (useList), not {}",
                                      read->isMap() ? "an object" : "a single value"));
        return false;
      }
      ex.message().setBody(std::move(*read));
      return true;
    } catch (...) {
      ex.fail(ErrorCode::TypeConversion, "Cannot unmarshal JSON");
      return false;
    }
  }

 private:
  Settings s_;
};

class JsonFactory final : public DataFormatFactory {
 public:
  std::span<const OptionSpec> options() const override { return kOptions; }

  Result<std::unique_ptr<DataFormat>> create(Context& context,
                                             const DataFormatOptions& options) const override {
    DROMEDARY_TRY(o, resolve(options));
    Settings s;
    s.style.pretty = o.getBool("prettyPrint");
    s.useList = o.getBool("useList");
    s.contentType = o.getBool("contentTypeHeader");
    const std::string& include = o.getString("include");
    if (!include.empty() && include != "NON_NULL" && include != "ALWAYS" && include != "NON_EMPTY") {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("json include must be NON_NULL, NON_EMPTY or ALWAYS, not '{}'",
                                   include));
    }
    s.style.skipNulls = include == "NON_NULL" || include == "NON_EMPTY";
    const std::string& type = o.getString("unmarshalType");
    if (std::find(kListTypes.begin(), kListTypes.end(), type) != kListTypes.end()) {
      s.useList = true;
    } else if (!type.empty() && std::find(kMapTypes.begin(), kMapTypes.end(), type) == kMapTypes.end()) {
      Logger log = Logger::get("dromedary.json");
      if (log.enabled(LoggingLevel::Warn)) {
        log.log(LoggingLevel::Warn,
                fmt::format("json unmarshalType '{}' is ignored: there are no Java classes here; "
                            "the body becomes maps, lists and values",
                            type));
      }
    }
    (void)context;
    return std::unique_ptr<DataFormat>(new JsonDataFormat(s));
  }

 private:
  static Result<EndpointOptions> resolve(const DataFormatOptions& options) {
    return resolveOptions(kOptions, options, "the json data format");
  }
};

}  // namespace

std::unique_ptr<Language> makeJsonPathLanguage();  // json_path_language.cc
std::unique_ptr<Language> makeJqLanguage();        // jq_language.cc

}  // namespace component::json

namespace {
// convertBodyTo(Map) and (List) of JSON text: Camel's Jackson type converter.
template <ValueType Target>
bool jsonToValue(const Value& in, Value& out) {
  std::string_view text = in.isString() ? std::string_view(in.getString()) : in.getBytes().view();
  auto read = component::json::readJson(text);
  if (!read || read->type() != Target) return false;
  out = std::move(*read);
  return true;
}
}  // namespace

void registerJsonComponent(Context& context) {
  auto& converters = TypeConverterRegistry::global();
  for (ValueType from : {ValueType::String, ValueType::Bytes}) {
    converters.add(detail::builtinTypeId(from), detail::builtinTypeId(ValueType::Map),
                   &jsonToValue<ValueType::Map>);
    converters.add(detail::builtinTypeId(from), detail::builtinTypeId(ValueType::List),
                   &jsonToValue<ValueType::List>);
  }
  context.addLanguage("jsonpath", component::json::makeJsonPathLanguage());
  context.addLanguage("jq", component::json::makeJqLanguage());
  component::json::registerFieldTransforms(context);
  component::json::registerTopicRouters(context);
  auto factory = std::make_shared<component::json::JsonFactory>();
  for (const char* name : {"json", "jackson", "gson", "jsonb", "fastjson"}) {
    context.addDataFormat(name, factory);
  }
}

}  // namespace dromedary

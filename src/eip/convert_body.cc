// SPDX-License-Identifier: Apache-2.0
// convertBodyTo(type) and convertHeaderTo(name, type): converts the body (or a header)
// through the type converter; the type name is resolved once, when the route starts.
#include <fmt/format.h>

#include "core/scratch.h"
#include "core/text.h"
#include "core/type_names.h"
#include "eip/models.h"
#include "engine/compiled_route.h"
#include "eip/eip_schema.h"

namespace dromedary::eip {

namespace {

enum class Charset { Utf8, Latin1, Ascii };

// Charset names as Java accepts them (ignoring case); nothing for one not supported here.
std::optional<Charset> charsetByName(std::string_view name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (n.empty() || n == "UTF-8" || n == "UTF8") return Charset::Utf8;
  if (n == "ISO-8859-1" || n == "ISO8859-1" || n == "ISO_8859_1" || n == "LATIN1") {
    return Charset::Latin1;
  }
  if (n == "US-ASCII" || n == "ASCII") return Charset::Ascii;
  return std::nullopt;
}

// Latin-1 bytes as UTF-8 text, and back (false when a character has no Latin-1 byte).
void latin1ToUtf8(std::string_view in, std::string& out) {
  out.clear();
  for (unsigned char c : in) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}
bool utf8ToLatin1(std::string_view in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if ((c & 0xFE) == 0xC2 && i + 1 < in.size()) {
      out += static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(in[++i]) & 0x3F));
    } else {
      return false;
    }
  }
  return true;
}

// convertBodyTo, and convertHeaderTo (convertVariableTo, `variable`) when `header` is given:
// the header (variable) converted in place, or into `to_header` (Camel's toName). An absent
// header is left absent.
class ConvertBodyStep final : public Step {
 public:
  ConvertBodyStep(ValueType target, std::string type_name, Charset charset, bool mandatory,
                  std::string header = {}, std::string to_header = {}, bool variable = false)
      : target_(detail::builtinTypeId(target)),
        type_name_(std::move(type_name)),
        bounds_(integerBounds(type_name_)),
        charset_(charset),
        mandatory_(mandatory),
        header_(std::move(header)),
        to_header_(std::move(to_header)),
        variable_(variable),
        failure_(header_.empty() ? "Cannot convert body"
                 : variable      ? "Cannot convert variable"
                                 : "Cannot convert header") {}

  Status run(Exchange& ex) noexcept override {
    Value* slot = &ex.message().body();
    if (!header_.empty()) {
      Headers* found = variable_ ? nullptr : &ex.message().headers();
      if (variable_) {
        try {
          found = &ex.variables();
        } catch (...) {
          ex.setException(std::current_exception());
          return Status::Fail;
        }
      }
      Headers& headers = *found;
      Value* source = headers.find(header_);
      if (!source) return Status::Continue;
      if (!to_header_.empty()) {
        try {
          Value copy = *source;
          slot = &headers.slot(to_header_);
          *slot = std::move(copy);
        } catch (...) {
          ex.setException(std::current_exception());
          return Status::Fail;
        }
      } else {
        slot = source;
      }
    }
    if (charset_ != Charset::Utf8) return runWithCharset(ex, *slot);
    return convert(ex, *slot);
  }

  bool mayBlock() const noexcept override { return false; }

 private:
  // The conversion through the type converter (text as UTF-8).
  Status convert(Exchange& ex, Value& body) noexcept {
    if (body.typeId() == target_ && !bounds_) return Status::Continue;
    ScratchValue scratch;
    const bool same = body.typeId() == target_;
    if (!same && !detail::convertValue(body, target_, *scratch)) {
      if (!mandatory_) {  // Camel's mandatory=false: no value rather than a failure
        body.reset();
        return Status::Continue;
      }
      // The failure path may allocate: it builds the text the error handler will show.
      try {
        std::string shown = body.toString();
        if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
        ex.failWithDetail(ErrorCode::TypeConversion, failure_,
                          fmt::format("no type conversion from {} to {} for value '{}'",
                                      body.typeName(), type_name_, shown));
      } catch (...) {
        ex.fail(ErrorCode::TypeConversion, failure_);
      }
      return Status::Fail;
    }
    const Value& converted = same ? body : *scratch;
    if (bounds_ && converted.isInt() &&
        (converted.getInt() < bounds_->first || converted.getInt() > bounds_->second)) {
      try {
        ex.failWithDetail(ErrorCode::TypeConversion, failure_,
                          fmt::format("{} is out of range for {} ({} to {})", converted.getInt(),
                                      type_name_, bounds_->first, bounds_->second));
      } catch (...) {
        ex.fail(ErrorCode::TypeConversion, failure_);
      }
      return Status::Fail;
    }
    if (!same) std::swap(body, *scratch);
    return Status::Continue;
  }

  // Text and bytes in another charset than UTF-8 (the text of a String is UTF-8 here): bytes
  // to String decodes, String to byte[] encodes; anything else converts as usual.
  Status runWithCharset(Exchange& ex, Value& body) noexcept {
    const TypeId string_id = detail::builtinTypeId(ValueType::String);
    const TypeId bytes_id = detail::builtinTypeId(ValueType::Bytes);
    try {
      if (target_ == string_id && body.isBytes()) {
        std::string text;
        if (charset_ == Charset::Latin1) {
          latin1ToUtf8(body.getBytes().view(), text);
        } else {
          text = std::string(body.getBytes().view());
          for (char& c : text) {
            if (static_cast<unsigned char>(c) >= 0x80) c = '?';  // Java's replacement
          }
        }
        body = Value(std::move(text));
        return Status::Continue;
      }
      if (target_ == bytes_id && body.isString()) {
        std::string bytes;
        if (charset_ == Charset::Latin1) {
          if (!utf8ToLatin1(body.getString(), bytes)) return charsetFailure(ex, body);
        } else {
          bytes = body.getString();
          for (char c : bytes) {
            if (static_cast<unsigned char>(c) >= 0x80) return charsetFailure(ex, body);
          }
        }
        body = Value(Bytes(std::move(bytes)));
        return Status::Continue;
      }
    } catch (...) {
      ex.fail(ErrorCode::TypeConversion, failure_);
      return Status::Fail;
    }
    return convert(ex, body);
  }

  Status charsetFailure(Exchange& ex, Value& body) noexcept {
    if (!mandatory_) {
      body.reset();
      return Status::Continue;
    }
    ex.failWithDetail(ErrorCode::TypeConversion, failure_,
                      fmt::format("a character has no byte in the charset of {}", type_name_));
    return Status::Fail;
  }

  TypeId target_;
  std::string type_name_;
  std::optional<std::pair<int64_t, int64_t>> bounds_;
  const Charset charset_;
  const bool mandatory_;
  const std::string header_;
  const std::string to_header_;
  const bool variable_;
  const std::string_view failure_;
};

}  // namespace

namespace {
Result<std::unique_ptr<Step>> compileConversion(RouteCompiler& compiler, const StepModel& model,
                                                const std::string& type,
                                                const std::string& charset_name, bool mandatory,
                                                std::string header, std::string to_header,
                                                bool variable = false) {
  auto charset = charsetByName(charset_name);
  if (!charset) {
    return compiler.error(
        model, makeError(ErrorCode::InvalidRoute,
                         fmt::format("charset '{}' of {} is not one this engine converts: "
                                     "UTF-8, ISO-8859-1 or US-ASCII",
                                     charset_name, model.kind())));
  }
  if (auto target = conversionTargetByName(type)) {
    return std::unique_ptr<Step>(new ConvertBodyStep(*target, type, *charset, mandatory,
                                                     std::move(header), std::move(to_header),
                                                     variable));
  }
  std::vector<std::string_view> names = conversionTargetNames();
  std::string message = fmt::format("unknown type '{}' for {}", type, model.kind());
  std::string meant = closestMatch(type, names);
  message += meant.empty() ? "; known types: String, Integer, Long, Double, Float, Boolean, "
                             "byte[], Map, List"
                           : fmt::format("; did you mean '{}'?", meant);
  return compiler.error(model, makeError(ErrorCode::InvalidRoute, std::move(message)));
}
}  // namespace

Result<std::unique_ptr<Step>> ConvertHeaderModel::compile(RouteCompiler& compiler) const {
  auto name = compiler.context().resolvePlaceholders(header);
  if (!name) return compiler.error(*this, name.error());
  auto to = compiler.context().resolvePlaceholders(toName);
  if (!to) return compiler.error(*this, to.error());
  if (variable) {
    // Only the exchange's own variables: a global or route one is shared, not the exchange's
    // to convert in place.
    for (const std::string* v : {&*name, &*to}) {
      if (v->starts_with("global:") || v->starts_with("route:")) {
        return compiler.error(*this, makeError(ErrorCode::InvalidRoute,
                                               fmt::format("convertVariableTo converts the "
                                                           "exchange's own variables, not '{}'",
                                                           *v)));
      }
    }
  }
  return compileConversion(compiler, *this, type, charset, mandatory, std::move(*name),
                           *to == *name ? std::string() : std::move(*to), variable);
}

Result<std::unique_ptr<Step>> ConvertBodyModel::compile(RouteCompiler& compiler) const {
  return compileConversion(compiler, *this, type, charset, mandatory, {}, {});
}

// The file DSLs' schemas (eip_schema.h): what route files may write for this step.
namespace {
constexpr std::string_view kConvertBodyToAliases[] = {"convert-body-to"};
constexpr AttributeSchema kConvertBodyToAttributes[] = {
    {"type", AttributeType::Text, "",
     "The type: java.lang.String, byte[], Integer, Long, Double, Boolean, java.util.Map "
     "(JSON text read, with the json component) ...", true},
    {"charset", AttributeType::Text, "",
     "The bytes' encoding between text and byte[]: UTF-8 (the default), ISO-8859-1, US-ASCII"},
    {"mandatory", AttributeType::Boolean, "true",
     "false: a body that cannot be converted becomes null instead of failing the exchange"},
};
}  // namespace

extern const EipSchema kConvertBodyToSchema{
    .key = "convertBodyTo",
    .aliases = kConvertBodyToAliases,
    .description = "Converts the body to a type",
    .attributes = kConvertBodyToAttributes,
    .shorthand = "type",
};

namespace {
constexpr std::string_view kConvertHeaderToAliases[] = {"convert-header-to"};
constexpr AttributeSchema kConvertHeaderToAttributes[] = {
    {"name", AttributeType::Text, "", "The header to convert (absent: nothing is done)", true},
    {"type", AttributeType::Text, "", "The type, as convertBodyTo's", true},
    {"toName", AttributeType::Text, "",
     "The header the converted value goes to (default: the same header)"},
    {"charset", AttributeType::Text, "",
     "The bytes' encoding between text and byte[]: UTF-8 (the default), ISO-8859-1, US-ASCII"},
    {"mandatory", AttributeType::Boolean, "true",
     "false: a value that cannot be converted becomes null instead of failing the exchange"},
};
}  // namespace

extern const EipSchema kConvertHeaderToSchema{
    .key = "convertHeaderTo",
    .aliases = kConvertHeaderToAliases,
    .description = "Converts a header to a type (Camel 4), into itself or another header",
    .attributes = kConvertHeaderToAttributes,
};

}  // namespace dromedary::eip

// SPDX-License-Identifier: Apache-2.0
// Camel's JSON field transforms as beans of route files and Kamelets: the classes of
// org.apache.camel.component.kafka.transform that Camel's field-action Kamelets make
// (`beans: [{name: extractField, type: "#class:...ExtractField", properties: {field: ...}}]`,
// then `process: {ref: "{{extractField}}"}`), written here on Values so that those Kamelets,
// Camel's own files of them included, run unchanged.
//
// Each reads the body as Camel's getBody(JsonNode.class) gives it: a map or a list as it is,
// text or bytes read as JSON. A body that is not JSON, or not the shape a transform needs,
// fails the exchange with java.lang.IllegalArgumentException naming the transform (Camel
// throws InvalidPayloadException or a ClassCastException there); the error handler has it.
#include "field_transforms.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/language.h>
#include <dromedary/spi/processor.h>

#include "json_text.h"

namespace dromedary::component::json {

namespace {

constexpr std::string_view kPackage = "org.apache.camel.component.kafka.transform.";

// The body as a JSON node: a map or a list as it is, text or bytes read as JSON, a number or a
// flag as the scalar it is.
Value jsonBody(const Exchange& exchange, std::string_view transform) {
  const Value& body = exchange.message().body();
  if (body.isString() || body.isBytes()) {
    auto read = readJson(body.isString() ? std::string_view(body.getString()) : body.getBytes().view());
    if (!read) {
      throw std::invalid_argument(
          fmt::format("{}: the body is not JSON: {}", transform, read.error().message));
    }
    return std::move(*read);
  }
  if (body.isNull()) {
    throw std::invalid_argument(fmt::format("{}: the message has no body (JSON expected)", transform));
  }
  return body;
}

// A JSON object body's map, or an error naming the transform. The const form only reads (a
// map still shared with the message is not copied); the other is for changing it.
const ValueMap& fieldsOf(const Value& json, std::string_view transform) {
  if (!json.isMap()) {
    throw std::invalid_argument(fmt::format("{}: the body must be a JSON object, not {}",
                                            transform, valueTypeName(json.type())));
  }
  return json.getMap();
}
ValueMap& objectOf(Value& json, std::string_view transform) {
  fieldsOf(json, transform);
  return json.mutableMap();
}

const Value* fieldOf(const ValueMap& map, std::string_view field) {
  for (const auto& [name, value] : map) {
    if (name == field) return &value;
  }
  return nullptr;
}

// What a transform is given: the bean's property when its bean has it (a template bean of a
// Kamelet), else the exchange property of that name, read per exchange (Camel's classes read
// those: their Kamelets set them before `bean: CLASS`). Null when neither is there.
class Input {
 public:
  Input(const Context::BeanDefinition& bean, std::string_view name) : name_(name) {
    if (const std::string* v = bean.property(name)) configured_ = *v;
  }
  std::optional<std::string> of(const Exchange& exchange) const {
    if (configured_) return configured_;
    const Value* p = exchange.getProperty(name_);
    if (!p || p->isNull()) return std::nullopt;
    return p->as<std::string>();
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::optional<std::string> configured_;
};

// A comma-separated list as Camel's classes split it (no trimming; empty text, no names).
std::vector<std::string> names(const std::optional<std::string>& text) {
  std::vector<std::string> out;
  if (!text || text->empty()) return out;
  size_t start = 0;
  for (;;) {
    size_t comma = text->find(',', start);
    out.push_back(text->substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool listed(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool flag(const Context::BeanDefinition& bean, std::string_view key, bool fallback) {
  const std::string* v = bean.property(key);
  if (!v || v->empty()) return fallback;
  if (*v == "true") return true;
  if (*v == "false") return false;
  throw std::invalid_argument(fmt::format("{} must be true or false, not '{}'", key, *v));
}

// A transform's work, failures turned into the exchange's exception.
class Transform : public Processor {
 public:
  Status process(Exchange& exchange) override {
    try {
      apply(exchange);
      return exchange.failed() ? Status::Fail : Status::Continue;
    } catch (...) {
      exchange.setException(std::current_exception());
      return Status::Fail;
    }
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  virtual void apply(Exchange& exchange) const = 0;
};

// ExtractField: the body becomes the object's `field` (null when it has none), or, with
// headerOutput, that value goes into a header (CamelKameletsExtractFieldName, or
// headerOutputName) and the body stays; with strictHeaderCheck, a header already there keeps
// its value and the body is replaced instead. Sets the property trimField, which Camel's
// Kamelet reads to decide whether to write the result back as JSON.
class ExtractField final : public Transform {
 public:
  explicit ExtractField(const Context::BeanDefinition& bean)
      : headerOutput_(flag(bean, "headerOutput", false)),
        strictHeaderCheck_(flag(bean, "strictHeaderCheck", false)),
        trimField_(flag(bean, "trimField", false)) {
    if (const std::string* f = bean.property("field")) field_ = *f;
    const std::string* name = bean.property("headerOutputName");
    header_ = name && !name->empty() && !equalsIgnoreCase(*name, "none")
                  ? *name
                  : std::string("CamelKameletsExtractFieldName");
  }

 private:
  void apply(Exchange& exchange) const override {
    Value json = jsonBody(exchange, "ExtractField");
    const Value* found = fieldOf(fieldsOf(json, "ExtractField"), field_);
    Value extracted = found ? *found : Value();
    Headers& headers = exchange.message().headers();
    if (!headerOutput_ || (strictHeaderCheck_ && headers.contains(header_))) {
      exchange.message().setBody(std::move(extracted));
    } else {
      headers.set(header_, std::move(extracted));
    }
    exchange.setProperty("trimField", Value(trimField_ ? "true" : "false"));
  }

  std::string field_;
  std::string header_;
  bool headerOutput_, strictHeaderCheck_, trimField_;
};

// InsertField: adds `field` with `value` (Simple when it holds a ${...} function, text
// otherwise) to an object body, or appends the value to an array body.
class InsertField final : public Transform {
 public:
  InsertField(Context& context, const Context::BeanDefinition& bean) {
    if (const std::string* f = bean.property("field")) field_ = *f;
    if (const std::string* v = bean.property("value")) value_ = *v;
    if (value_.find("${") != std::string::npos) {
      Language* simple = context.language("simple");
      if (!simple) throw std::invalid_argument("the simple language is not registered");
      auto made = simple->createExpression(value_, context);
      if (!made) throw std::invalid_argument(fmt::format("value: {}", made.error().message));
      expression_ = std::move(*made);
    }
  }

 private:
  void apply(Exchange& exchange) const override {
    Value text(value_);
    if (expression_) {
      Value scratch;
      const Value* v = expression_->evaluate(exchange, scratch);
      if (!v || exchange.failed()) return;
      text = Value(v->as<std::string>());
    }
    Value json = jsonBody(exchange, "InsertField");
    if (json.isList()) {
      json.mutableList().push_back(std::move(text));
    } else {
      ValueMap& map = objectOf(json, "InsertField");
      bool replaced = false;
      for (auto& [name, value] : map) {
        if (name == field_) {
          value = text;
          replaced = true;
        }
      }
      if (!replaced) map.emplace_back(field_, std::move(text));
    }
    exchange.message().setBody(std::move(json));
  }

  std::string field_, value_;
  std::unique_ptr<Expression> expression_;
};

// DropField: removes `field` from an object body; any other JSON body passes unchanged.
class DropField final : public Transform {
 public:
  explicit DropField(const Context::BeanDefinition& bean) {
    if (const std::string* f = bean.property("field")) field_ = *f;
  }

 private:
  void apply(Exchange& exchange) const override {
    Value json = jsonBody(exchange, "DropField");
    if (!json.isMap()) return;
    ValueMap& map = json.mutableMap();
    std::erase_if(map, [&](const auto& entry) { return entry.first == field_; });
    exchange.message().setBody(std::move(json));
  }

  std::string field_;
};

// HoistField: the body, whatever it is, becomes the one field `field` of an object.
class HoistField final : public Transform {
 public:
  explicit HoistField(const Context::BeanDefinition& bean) : field_(bean, "field") {}

 private:
  void apply(Exchange& exchange) const override {
    auto field = field_.of(exchange);
    if (!field) throw std::invalid_argument("HoistField: no field name (the property 'field')");
    ValueMap wrapped;
    wrapped.emplace_back(std::move(*field), exchange.message().body());
    exchange.message().setBody(Value(std::move(wrapped)));
  }

  Input field_;
};

// MaskField: the listed `fields` of an object body get `replacement`, made the type of the
// value they replace (text, a whole number, a decimal); without a replacement, that type's
// empty value (false, 0, "", [], {}). A null stays null; a flag, list or map cannot take a
// replacement and fails, as in Camel.
class MaskField final : public Transform {
 public:
  explicit MaskField(const Context::BeanDefinition& bean)
      : fields_(bean, "fields"), replacement_(bean, "replacement") {}

 private:
  void apply(Exchange& exchange) const override {
    const std::vector<std::string> fields = names(fields_.of(exchange));
    const std::optional<std::string> replacement = replacement_.of(exchange);
    Value json = jsonBody(exchange, "MaskField");
    for (auto& [name, value] : objectOf(json, "MaskField")) {
      if (listed(fields, name) && !value.isNull()) value = masked(value, replacement);
    }
    exchange.message().setBody(std::move(json));
  }

  static Value masked(const Value& value, const std::optional<std::string>& replacement) {
    if (!replacement) {
      switch (value.type()) {
        case ValueType::Bool: return Value(false);
        case ValueType::Int: return Value(int64_t{0});
        case ValueType::Double: return Value(0.0);
        case ValueType::String: return Value("");
        case ValueType::List: return Value(ValueList{});
        case ValueType::Map: return Value(ValueMap{});
        default: break;
      }
    } else if (value.isString()) {
      return Value(*replacement);
    } else if (value.isInt() || value.isDouble()) {
      Value text(*replacement);
      if (value.isInt()) {
        if (auto n = text.tryAs<int64_t>()) return Value(*n);
      } else if (auto d = text.tryAs<double>()) {
        return Value(*d);
      }
      throw std::invalid_argument(
          fmt::format("MaskField: cannot mask a number with '{}', which is not one", *replacement));
    }
    throw std::invalid_argument(fmt::format("MaskField: cannot mask a value of type {}{}",
                                            valueTypeName(value.type()),
                                            replacement ? " with a replacement" : ""));
  }

  Input fields_, replacement_;
};

// ReplaceField: keeps the fields `enabled` lists ("all": every one) but those `disabled`
// lists ("none": no one), renaming those `renames` maps ("old:new,..."). When nothing is
// left the body is unchanged, as in Camel.
class ReplaceField final : public Transform {
 public:
  explicit ReplaceField(const Context::BeanDefinition& bean)
      : enabled_(bean, "enabled"), disabled_(bean, "disabled"), renames_(bean, "renames") {}

 private:
  void apply(Exchange& exchange) const override {
    auto enabled = enabled_.of(exchange);
    auto disabled = disabled_.of(exchange);
    const std::vector<std::string> keep =
        enabled && !equalsIgnoreCase(*enabled, "all") ? names(enabled) : std::vector<std::string>{};
    const std::vector<std::string> drop = disabled && !equalsIgnoreCase(*disabled, "none")
                                              ? names(disabled)
                                              : std::vector<std::string>{};
    std::vector<std::pair<std::string, std::string>> renames;
    for (const std::string& mapping : names(renames_.of(exchange))) {
      size_t colon = mapping.find(':');
      if (colon == std::string::npos) {
        throw std::invalid_argument(
            fmt::format("ReplaceField: the rename '{}' is not old:new", mapping));
      }
      renames.emplace_back(mapping.substr(0, colon), mapping.substr(colon + 1));
    }
    Value json = jsonBody(exchange, "ReplaceField");
    ValueMap kept;
    for (const auto& [name, value] : fieldsOf(json, "ReplaceField")) {
      if (listed(drop, name) || (!keep.empty() && !listed(keep, name))) continue;
      std::string renamed = name;
      for (const auto& [from, to] : renames) {
        if (from == name) renamed = to;
      }
      kept.emplace_back(std::move(renamed), value);
    }
    if (!kept.empty()) json = Value(std::move(kept));
    exchange.message().setBody(std::move(json));
  }

  Input enabled_, disabled_, renames_;
};

// ValueToKey: the record's key (kafka.KEY) becomes an object of the listed `fields` of an
// object body; the body stays.
class ValueToKey final : public Transform {
 public:
  explicit ValueToKey(const Context::BeanDefinition& bean) : fields_(bean, "fields") {}

 private:
  void apply(Exchange& exchange) const override {
    const std::vector<std::string> fields = names(fields_.of(exchange));
    Value json = jsonBody(exchange, "ValueToKey");
    ValueMap key;
    for (const auto& [name, value] : fieldsOf(json, "ValueToKey")) {
      if (listed(fields, name)) key.emplace_back(name, value);
    }
    exchange.message().headers().set("kafka.KEY", Value(std::move(key)));
  }

  Input fields_;
};

// A factory binding the processor `make` builds under the bean's name; a property the class
// does not take is named, with those it takes.
template <class Make>
Context::BeanFactory factory(std::string_view base, std::initializer_list<std::string_view> allowed,
                             Make make) {
  std::vector<std::string_view> names(allowed);
  return [base, names, make](Context& context, const Context::BeanDefinition& bean) -> Result<void> {
    for (const auto& [key, value] : bean.properties) {
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("{} has no property '{}' (it takes: {})", base, key,
                                     fmt::join(names, ", ")));
      }
    }
    try {
      context.bindProcessor(bean.name, make(context, bean));
    } catch (const std::exception& e) {
      return makeError(ErrorCode::InvalidOption, fmt::format("{}: {}", base, e.what()));
    }
    return {};
  };
}

}  // namespace

void registerFieldTransforms(Context& context) {
  auto add = [&](std::string_view base, Context::BeanFactory f) {
    context.addBeanFactory(fmt::format("{}{}", kPackage, base), std::move(f));
  };
  add("ExtractField",
      factory("ExtractField",
              {"field", "headerOutput", "headerOutputName", "strictHeaderCheck", "trimField"},
              [](Context&, const Context::BeanDefinition& b) {
                return std::make_shared<ExtractField>(b);
              }));
  add("InsertField", factory("InsertField", {"field", "value"},
                             [](Context& c, const Context::BeanDefinition& b) {
                               return std::make_shared<InsertField>(c, b);
                             }));
  add("DropField", factory("DropField", {"field"}, [](Context&, const Context::BeanDefinition& b) {
        return std::make_shared<DropField>(b);
      }));
  add("HoistField", factory("HoistField", {"field"}, [](Context&, const Context::BeanDefinition& b) {
        return std::make_shared<HoistField>(b);
      }));
  add("MaskField",
      factory("MaskField", {"fields", "replacement"}, [](Context&, const Context::BeanDefinition& b) {
        return std::make_shared<MaskField>(b);
      }));
  add("ReplaceField", factory("ReplaceField", {"enabled", "disabled", "renames"},
                              [](Context&, const Context::BeanDefinition& b) {
                                return std::make_shared<ReplaceField>(b);
                              }));
  add("ValueToKey", factory("ValueToKey", {"fields"}, [](Context&, const Context::BeanDefinition& b) {
        return std::make_shared<ValueToKey>(b);
      }));
}

}  // namespace dromedary::component::json

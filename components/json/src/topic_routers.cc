// SPDX-License-Identifier: Apache-2.0
// Camel's RegexRouter (org.apache.camel.component.kafka.transform.RegexRouter, what its
// regex-router-action Kamelet calls) as a bean type: a record whose topic (kafka.TOPIC)
// matches `regex` whole is sent to the topic `replacement` makes of it (kafka.OVERRIDE_TOPIC),
// and a CloudEvents type (ce-type) is rewritten the same way. It lives beside the JSON field
// transforms, which are registered with it, on the RE2 the json component already links.
//
// The regex is RE2's (Java's syntax but for backreferences and lookaround, which RE2 refuses
// by name at route start); the replacement is Java's: $1 or ${name} for a group, \$ and \\ for
// the characters themselves.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <re2/re2.h>

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/processor.h>

#include "field_transforms.h"

namespace dromedary::component::json {

namespace {

struct Router {
  std::unique_ptr<RE2> whole;  // ^(?:regex)$
  std::string rewrite;         // the replacement in RE2's rewrite syntax
};

// Java's replacement syntax in RE2's: $n -> \n, ${name} -> \n of that name, \x -> x (a
// backslash doubled for RE2).
std::string rewriteOf(std::string_view replacement, const RE2& re) {
  std::string out;
  for (size_t i = 0; i < replacement.size(); ++i) {
    char c = replacement[i];
    if (c == '\\') {
      if (i + 1 == replacement.size()) {
        throw std::invalid_argument("RegexRouter: the replacement ends with a lone backslash");
      }
      char next = replacement[++i];
      if (next == '\\') out += "\\\\";
      else out += next;
    } else if (c == '$') {
      if (i + 1 < replacement.size() && replacement[i + 1] == '{') {
        size_t close = replacement.find('}', i + 2);
        if (close == std::string_view::npos) {
          throw std::invalid_argument("RegexRouter: a ${ in the replacement is not closed");
        }
        std::string name(replacement.substr(i + 2, close - i - 2));
        auto groups = re.NamedCapturingGroups();
        auto it = groups.find(name);
        if (it == groups.end()) {
          throw std::invalid_argument(
              fmt::format("RegexRouter: the replacement names the group '{}', which the regex "
                          "does not have",
                          name));
        }
        out += fmt::format("\\{}", it->second);
        i = close;
      } else if (i + 1 < replacement.size() && replacement[i + 1] >= '0' &&
                 replacement[i + 1] <= '9') {
        out += '\\';
        out += replacement[++i];
      } else {
        throw std::invalid_argument(
            "RegexRouter: a $ in the replacement must name a group ($1, ${name}); write \\$ for "
            "the character");
      }
    } else {
      out += c;
    }
  }
  return out;
}

Router routerOf(const std::string& regex, const std::string& replacement) {
  Router r;
  r.whole = std::make_unique<RE2>("^(?:" + regex + ")$", RE2::Quiet);
  if (!r.whole->ok()) {
    throw std::invalid_argument(
        fmt::format("RegexRouter: the regex '{}' is not valid: {}", regex, r.whole->error()));
  }
  r.rewrite = rewriteOf(replacement, *r.whole);
  std::string why;
  if (!r.whole->CheckRewriteString(r.rewrite, &why)) {
    throw std::invalid_argument(fmt::format("RegexRouter: the replacement '{}': {}", replacement, why));
  }
  return r;
}

class RegexRouter final : public Processor {
 public:
  explicit RegexRouter(const Context::BeanDefinition& bean) {
    const std::string* regex = bean.property("regex");
    const std::string* replacement = bean.property("replacement");
    if (regex && replacement) configured_ = routerOf(*regex, *replacement);
  }

  Status process(Exchange& exchange) override {
    try {
      if (configured_) {
        route(exchange, *configured_);
      } else {
        // Camel's class reads the exchange properties its Kamelet sets: made per exchange.
        const Value* regex = exchange.getProperty("regex");
        const Value* replacement = exchange.getProperty("replacement");
        if (!regex || regex->isNull() || !replacement || replacement->isNull()) {
          throw std::invalid_argument(
              "RegexRouter: no regex and replacement (the properties 'regex' and 'replacement')");
        }
        route(exchange, routerOf(regex->as<std::string>(), replacement->as<std::string>()));
      }
      return Status::Continue;
    } catch (...) {
      exchange.setException(std::current_exception());
      return Status::Fail;
    }
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  static void route(Exchange& exchange, const Router& r) {
    Headers& headers = exchange.message().headers();
    rewriteHeader(headers, "kafka.TOPIC", "kafka.OVERRIDE_TOPIC", r);
    rewriteHeader(headers, "ce-type", "ce-type", r);
  }
  static void rewriteHeader(Headers& headers, std::string_view from, std::string_view to,
                            const Router& r) {
    const Value* v = headers.get(from);
    if (!v || v->isNull()) return;
    std::string text = v->as<std::string>();
    if (text.empty()) return;
    std::string out;
    if (RE2::Extract(text, *r.whole, r.rewrite, &out)) headers.set(to, Value(std::move(out)));
  }

  std::optional<Router> configured_;
};

}  // namespace

void registerTopicRouters(Context& context) {
  context.addBeanFactory(
      "org.apache.camel.component.kafka.transform.RegexRouter",
      [](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
        for (const auto& [key, value] : bean.properties) {
          if (key != "regex" && key != "replacement") {
            return makeError(ErrorCode::InvalidOption,
                             fmt::format("RegexRouter has no property '{}' (it takes: regex, "
                                         "replacement)",
                                         key));
          }
        }
        try {
          c.bindProcessor(bean.name, std::make_shared<RegexRouter>(bean));
        } catch (const std::exception& e) {
          return makeError(ErrorCode::InvalidOption, e.what());
        }
        return {};
      });
}

}  // namespace dromedary::component::json

// SPDX-License-Identifier: Apache-2.0
#include "dsl/route_source.h"

#include <charconv>

#include <fmt/format.h>

#include <dromedary/engine/context.h>
#include <dromedary/engine/route_builder.h>

#include "core/text.h"
#include "engine/route_model.h"

namespace dromedary::dsl {

namespace {

enum class Expr { None, Required };

// What each step accepts. `attributes` lists every key besides the expression and nested
// steps; `required` those that must be there.
struct StepSpec {
  std::string_view kind;
  std::vector<std::string_view> attributes;
  std::vector<std::string_view> required;
  Expr expression;
  bool steps;
};

const std::vector<StepSpec>& stepSpecs() {
  static const std::vector<StepSpec> specs = {
      {"to", {"uri", "id", "description"}, {"uri"}, Expr::None, false},
      {"toD", {"uri", "id", "description"}, {"uri"}, Expr::None, false},
      {"setBody", {"id", "description"}, {}, Expr::Required, false},
      {"transform", {"id", "description"}, {}, Expr::Required, false},
      {"setHeader", {"name", "id", "description"}, {"name"}, Expr::Required, false},
      {"setProperty", {"name", "id", "description"}, {"name"}, Expr::Required, false},
      {"removeHeader", {"name", "id", "description"}, {"name"}, Expr::None, false},
      {"removeHeaders", {"pattern", "excludePattern", "id", "description"}, {"pattern"},
       Expr::None, false},
      {"removeProperty", {"name", "id", "description"}, {"name"}, Expr::None, false},
      {"removeProperties", {"pattern", "excludePattern", "id", "description"}, {"pattern"},
       Expr::None, false},
      {"convertBodyTo", {"type", "id", "description"}, {"type"}, Expr::None, false},
      {"filter", {"id", "description"}, {}, Expr::Required, true},
      {"choice", {"id", "description"}, {}, Expr::None, false},
      {"log", {"message", "loggingLevel", "logName", "id", "description"}, {"message"},
       Expr::None, false},
      {"stop", {"id", "description"}, {}, Expr::None, false},
      {"delay", {"asyncDelayed", "id", "description"}, {}, Expr::Required, false},
      {"throttle",
       {"timePeriodMillis", "rejectExecution", "asyncDelayed", "mode", "id", "description"},
       {},
       Expr::Required,
       false},
      {"threads", {"poolSize", "maxPoolSize", "maxQueueSize", "id", "description"}, {},
       Expr::None, false},
      {"process", {"ref", "id", "description"}, {"ref"}, Expr::None, false},
  };
  return specs;
}

const StepSpec* specOf(std::string_view kind) {
  for (const StepSpec& s : stepSpecs()) {
    if (s.kind == kind) return &s;
  }
  return nullptr;
}

std::vector<std::string_view> stepKinds() {
  std::vector<std::string_view> kinds;
  for (const StepSpec& s : stepSpecs()) kinds.push_back(s.kind);
  return kinds;
}

std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return n;
}

const Scalar* attribute(const std::vector<std::pair<std::string, Scalar>>& attributes,
                        std::string_view key) {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

// Builds one route through the C++ DSL, so files and C++ make the same model.
class Translator {
 public:
  explicit Translator(Context& context) : context_(context) {}

  Result<void> route(RouteBuilder& builder, const RouteSource& source) {
    for (const auto& [key, value] : source.attributes) {
      static const std::vector<std::string_view> kRouteKeys = {"id", "description",
                                                              "autoStartup"};
      if (std::find(kRouteKeys.begin(), kRouteKeys.end(), key) == kRouteKeys.end()) {
        return fileError(value.where, fmt::format("unknown key '{}' in route", key),
                         suggestion(key, kRouteKeys));
      }
    }
    DROMEDARY_TRY(uri, withParameters(source.from, source.parameters));
    RouteDefinition& def = builder.from(uri);
    def.modelForEngine().where = source.from.where;
    if (const Scalar* id = attribute(source.attributes, "id")) {
      DROMEDARY_TRY(v, resolve(*id));
      def.routeId(v);
    }
    if (const Scalar* d = attribute(source.attributes, "description")) {
      DROMEDARY_TRY(v, resolve(*d));
      def.description(v);
    }
    if (const Scalar* a = attribute(source.attributes, "autoStartup")) {
      DROMEDARY_TRY(v, resolve(*a));
      if (v != "true" && v != "false") {
        return fileError(a->where, fmt::format("autoStartup must be true or false, not '{}'", v));
      }
      def.autoStartup(v == "true");
    }
    return steps(def, source.steps);
  }

 private:
  Result<void> steps(RouteDefinition& def, const std::vector<StepSource>& list) {
    for (const StepSource& s : list) DROMEDARY_TRY_VOID(step(def, s));
    return {};
  }

  Result<std::string> resolve(const Scalar& s) {
    if (s.value.find("{{") == std::string::npos) return s.value;
    auto r = context_.resolvePlaceholders(s.value);
    if (!r) return fileError(s.where, r.error().message);
    return r;
  }

  Result<std::string> withParameters(const Scalar& uri,
                                     const std::vector<std::pair<std::string, Scalar>>& params) {
    DROMEDARY_TRY(out, resolve(uri));
    for (const auto& [key, value] : params) {
      DROMEDARY_TRY(v, resolve(value));
      out += out.find('?') == std::string::npos ? '?' : '&';
      out += key;
      out += '=';
      out += v;
    }
    return out;
  }

  Result<ExpressionDefinition> expression(const ExpressionSource& e) {
    const auto& languages = expressionLanguages();
    if (std::find(languages.begin(), languages.end(), e.language) == languages.end()) {
      return fileError(e.where, fmt::format("unknown language '{}'", e.language),
                       suggestion(e.language, languages));
    }
    if (e.language == "simple") return simple(e.text);
    if (e.language == "constant") return constant(Value(e.text));
    if (e.language == "header") return header(e.text);
    return exchangeProperty(e.text);
  }

  // Checks keys, required keys and the expression of a step against its spec.
  Result<void> validate(const StepSource& s, const StepSpec& spec) {
    for (const auto& [key, value] : s.attributes) {
      if ((s.kind == "to" || s.kind == "toD") && key == "pattern") {
        return fileError(value.where, fmt::format("'pattern' on {} is not supported yet", s.kind),
                         "a send with its own exchange pattern comes with request-reply "
                         "endpoints (issue #10)");
      }
      if (std::find(spec.attributes.begin(), spec.attributes.end(), key) ==
          spec.attributes.end()) {
        return fileError(value.where, fmt::format("unknown key '{}' in {}", key, s.kind),
                         suggestion(key, spec.attributes));
      }
    }
    for (std::string_view key : spec.required) {
      if (!attribute(s.attributes, key)) {
        return fileError(s.where, fmt::format("{} needs '{}'", s.kind, key));
      }
    }
    if (spec.expression == Expr::Required && !s.expression) {
      return fileError(s.where, fmt::format("{} needs an expression", s.kind),
                       "write it as simple, constant, header or exchangeProperty");
    }
    if (spec.expression == Expr::None && s.expression) {
      return fileError(s.expression->where,
                       fmt::format("{} takes no expression ('{}')", s.kind, s.expression->language));
    }
    if (!spec.steps && !s.steps.empty() && s.kind != "choice") {
      return fileError(s.steps.front().where, fmt::format("{} takes no nested steps", s.kind));
    }
    if (!s.parameters.empty() && s.kind != "to" && s.kind != "toD") {
      return fileError(s.parameters.front().second.where,
                       fmt::format("{} takes no endpoint parameters", s.kind));
    }
    return {};
  }

  Result<std::string> text(const StepSource& s, std::string_view key) {
    return resolve(*attribute(s.attributes, key));
  }

  Result<void> step(RouteDefinition& def, const StepSource& s) {
    const StepSpec* spec = specOf(s.kind);
    if (!spec) {
      return fileError(s.where, fmt::format("unknown step '{}'", s.kind),
                       suggestion(s.kind, stepKinds()));
    }
    DROMEDARY_TRY_VOID(validate(s, *spec));
    std::optional<ExpressionDefinition> expr;
    if (s.expression) {
      DROMEDARY_TRY(e, expression(*s.expression));
      expr = std::move(e);
    }
    const std::string& k = s.kind;
    if (k == "to") {
      DROMEDARY_TRY(uri, withParameters(*attribute(s.attributes, "uri"), s.parameters));
      def.to(uri);
    } else if (k == "toD") {
      DROMEDARY_TRY(uri, withParameters(*attribute(s.attributes, "uri"), s.parameters));
      def.toD(uri);
    } else if (k == "setBody") {
      def.setBody(*expr);
    } else if (k == "transform") {
      def.transform(*expr);
    } else if (k == "setHeader" || k == "setProperty") {
      DROMEDARY_TRY(name, text(s, "name"));
      k == "setHeader" ? def.setHeader(name, *expr) : def.setProperty(name, *expr);
    } else if (k == "removeHeader" || k == "removeProperty") {
      DROMEDARY_TRY(name, text(s, "name"));
      k == "removeHeader" ? def.removeHeader(name) : def.removeProperty(name);
    } else if (k == "removeHeaders" || k == "removeProperties") {
      DROMEDARY_TRY(pattern, text(s, "pattern"));
      std::vector<std::string> excludes;
      if (const Scalar* ex = attribute(s.attributes, "excludePattern")) {
        DROMEDARY_TRY(v, resolve(*ex));
        excludes.push_back(v);
      }
      k == "removeHeaders" ? def.removeHeaders(pattern, excludes)
                           : def.removeProperties(pattern, excludes);
    } else if (k == "convertBodyTo") {
      DROMEDARY_TRY(type, text(s, "type"));
      def.convertBodyTo(type);
    } else if (k == "log") {
      DROMEDARY_TRY_VOID(log(def, s));
    } else if (k == "stop") {
      def.stop();
    } else if (k == "throttle") {
      DROMEDARY_TRY_VOID(throttle(def, s, *expr));
    } else if (k == "threads") {
      DROMEDARY_TRY(pool, number(s, "poolSize", 10));
      DROMEDARY_TRY(max_pool, number(s, "maxPoolSize", -1));
      DROMEDARY_TRY(max_queue, number(s, "maxQueueSize", 1000));
      def.threads(static_cast<int>(pool), static_cast<int>(max_pool), static_cast<int>(max_queue));
    } else if (k == "delay") {
      def.delay(*expr);  // always asynchronous here: asyncDelayed=false would block a thread
    } else if (k == "process") {
      DROMEDARY_TRY(ref, text(s, "ref"));
      def.processRef(ref);
    } else if (k == "filter") {
      def.filter(*expr);
      place(def, s);
      DROMEDARY_TRY_VOID(steps(def, s.steps));
      def.end();
      return {};
    } else if (k == "choice") {
      return choice(def, s);
    }
    place(def, s);
    return {};
  }

  // An integer key, or `fallback` when absent.
  Result<int64_t> number(const StepSource& s, std::string_view key, int64_t fallback) {
    const Scalar* a = attribute(s.attributes, key);
    if (!a) return fallback;
    DROMEDARY_TRY(v, resolve(*a));
    auto n = parseInteger(v);
    if (!n) return fileError(a->where, fmt::format("{} must be a whole number, not '{}'", key, v));
    return *n;
  }

  Result<bool> flag(const StepSource& s, std::string_view key) {
    const Scalar* a = attribute(s.attributes, key);
    if (!a) return false;
    DROMEDARY_TRY(v, resolve(*a));
    if (v != "true" && v != "false") {
      return fileError(a->where, fmt::format("{} must be true or false, not '{}'", key, v));
    }
    return v == "true";
  }

  Result<void> throttle(RouteDefinition& def, const StepSource& s, ExpressionDefinition max) {
    DROMEDARY_TRY(reject, flag(s, "rejectExecution"));
    if (const Scalar* mode = attribute(s.attributes, "mode")) {
      if (mode->value == "ConcurrentRequests") {
        def.throttleConcurrentRequests(std::move(max), reject);
        return {};
      }
      if (mode->value != "TotalRequests") {
        return fileError(mode->where, fmt::format("unknown throttle mode '{}'", mode->value),
                         suggestion(mode->value, {"TotalRequests", "ConcurrentRequests"}));
      }
    }
    DROMEDARY_TRY(period, number(s, "timePeriodMillis", 1000));
    def.throttle(std::move(max), std::chrono::milliseconds(period), reject);
    return {};
  }

  Result<void> log(RouteDefinition& def, const StepSource& s) {
    DROMEDARY_TRY(message, text(s, "message"));
    LoggingLevel level = LoggingLevel::Info;
    if (const Scalar* l = attribute(s.attributes, "loggingLevel")) {
      DROMEDARY_TRY(v, resolve(*l));
      auto parsed = parseLoggingLevel(v);
      if (!parsed) {
        return fileError(l->where, fmt::format("unknown loggingLevel '{}'", v),
                         "expected one of: TRACE, DEBUG, INFO, WARN, ERROR, OFF");
      }
      level = *parsed;
    }
    std::string log_name;
    if (const Scalar* n = attribute(s.attributes, "logName")) {
      DROMEDARY_TRY(v, resolve(*n));
      log_name = v;
    }
    def.log(level, log_name, message);
    return {};
  }

  Result<void> choice(RouteDefinition& def, const StepSource& s) {
    if (s.whens.empty()) return fileError(s.where, "choice needs at least one when");
    def.choice();
    place(def, s);
    for (const StepSource& when : s.whens) {
      if (!when.expression) {
        return fileError(when.where, "when needs a predicate",
                         "write it as simple, constant, header or exchangeProperty");
      }
      for (const auto& [key, value] : when.attributes) {
        if (key != "id" && key != "description") {
          return fileError(value.where, fmt::format("unknown key '{}' in when", key),
                           suggestion(key, {"id", "description"}));
        }
      }
      DROMEDARY_TRY(predicate, expression(*when.expression));
      def.when(predicate);
      DROMEDARY_TRY_VOID(steps(def, when.steps));
    }
    for (const StepSource& other : s.otherwise) {
      def.otherwise();
      DROMEDARY_TRY_VOID(steps(def, other.steps));
    }
    def.end();
    return {};
  }

  // Records the step's position and its id (node ids show in statistics and errors).
  void place(RouteDefinition& def, const StepSource& s) {
    detail::StepModel* step = def.lastStepForEngine();
    if (!step) return;
    step->where = s.where;
    if (const Scalar* id = attribute(s.attributes, "id")) step->id = id->value;
  }

  Context& context_;
};

}  // namespace

std::string positionText(const SourceRef& where) {
  if (where.line == 0) return where.file;
  return fmt::format("{}:{}:{}", where.file, where.line, where.column);
}

Error fileError(const SourceRef& where, std::string_view what, std::string_view hint) {
  std::string message = fmt::format("{} at {}", what, positionText(where));
  if (!hint.empty()) {
    message += "; ";
    message += hint;
  }
  Error e = makeError(ErrorCode::InvalidRoute, std::move(message));
  e.where.snippet = where.snippet;
  return e;
}

std::string suggestion(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string meant = closestMatch(word, candidates);
  if (!meant.empty()) return fmt::format("did you mean '{}'?", meant);
  return fmt::format("expected one of: {}", joinNames(candidates));
}

const std::vector<std::string_view>& expressionLanguages() {
  static const std::vector<std::string_view> languages = {"simple", "constant", "header",
                                                          "exchangeProperty"};
  return languages;
}

Result<void> addRouteSources(Context& context, const std::vector<RouteSource>& routes,
                             const std::vector<BeanSource>& beans) {
  for (const BeanSource& bean : beans) {
    if (context.processorByName(bean.name.value)) continue;
    return fileError(bean.name.where,
                     fmt::format("bean '{}'{} cannot be created: there are no Java classes here",
                                 bean.name.value,
                                 bean.type.empty() ? std::string()
                                                   : fmt::format(" of type '{}'", bean.type)),
                     fmt::format("bind a C++ processor under this name with "
                                 "Context::bindProcessor(\"{}\", ...)",
                                 bean.name.value));
  }
  Translator translator(context);
  RouteBuilder builder;
  for (const RouteSource& r : routes) DROMEDARY_TRY_VOID(translator.route(builder, r));
  return context.addRoutes(builder);
}

}  // namespace dromedary::dsl

// SPDX-License-Identifier: Apache-2.0
// Camel's YAML DSL (as Camel JBang, Camel K and Kaoto write it) read into RouteSources.
//
//   - route:
//       id: hello
//       from:
//         uri: direct:hello
//         parameters: {timeout: 5000}
//         steps:
//           - setBody:
//               simple: "Hello ${body}"
//           - to: mock:out
//   - from:                 # the short form: a route without an id
//       uri: direct:other
//       steps: [...]
//   - routeConfiguration:   # error handling for the routes (all, or those naming its id)
//       errorHandler:
//         deadLetterChannel: {deadLetterUri: mock:dead, redeliveryPolicy: {...}}
//       onException:
//         - onException: {exception: [java.lang.Exception], handled: {constant: true}}
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "dsl/loaders.h"
#include "dsl/yaml/yaml_pieces.h"
#include "dsl/yaml/yaml_reader.h"
#include "dsl/yaml/yaml_shape.h"
#include "dsl/file_source.h"
#include "eip/eip_schema.h"

namespace dromedary::dsl {

namespace {

class YamlReader final : public YamlRouteReader {
 public:
  YamlReader(std::string file, FileSources& out) : file_(std::move(file)), out_(out) {}

  SourceRef at(const YAML::Node& node) const override {
    return markRef(file_, node.Mark(), first_line_);
  }

  /// The whole text as one document.
  Result<void> readWhole(std::string_view text, YamlNodeBudget& budget) {
    DROMEDARY_TRY(root, parse(text));
    return readRoot(root, text, budget);
  }

  /// Each piece as a document of its own, in order (yaml_pieces.h). False, with nothing read,
  /// when a piece does not parse alone: the caller reads the whole text instead, so that the
  /// file reads as it would whole (an alias to another entry's anchor) or fails where it would.
  Result<bool> readPieces(const std::vector<YamlPiece>& pieces, YamlNodeBudget& budget) {
    for (const YamlPiece& piece : pieces) {
      first_line_ = piece.first_line;
      YAML::Node root;
      try {
        root = YAML::Load(std::string(piece.text));
      } catch (const YAML::ParserException&) {
        return false;
      }
      try {
        DROMEDARY_TRY_VOID(readRoot(root, piece.text, budget));
      } catch (const YAML::Exception& e) {
        return fileError(markRef(file_, e.mark, first_line_),
                         fmt::format("invalid YAML: {}", e.msg));
      }
    }
    return true;
  }

 private:
  Result<YAML::Node> parse(std::string_view text) const {
    try {
      return YAML::Load(std::string(text));
    } catch (const YAML::DeepRecursion& e) {
      return fileError(markRef(file_, e.mark), "YAML nested too deep for its parser",
                       fmt::format("route files nest at most {} levels", kMaxFileDepth));
    } catch (const YAML::ParserException& e) {
      return fileError(markRef(file_, e.mark), fmt::format("invalid YAML: {}", e.msg));
    }
  }

  Result<void> readRoot(const YAML::Node& root, std::string_view text, YamlNodeBudget& budget) {
    if (root.IsNull()) return {};
    DROMEDARY_TRY_VOID(checkYamlShape(root, text, first_line_, file_, budget));
    if (const YAML::Node& map = root; map.IsMap() && map["kind"]) {
      return readYamlResource(map, *this, out_);  // a Kamelet, a Pipe
    }
    if (!root.IsSequence()) {
      return fileError(at(root), "a route file must be a list",
                       "start each entry with '- route:' or '- from:'");
    }
    for (const YAML::Node& item : root) {
      if (!item.IsMap() || item.size() != 1) {
        return fileError(at(item), "each entry must be one of route, from, routeTemplate, ...",
                         "write '- route:' followed by its keys");
      }
      auto entry = *item.begin();
      std::string key = eip::camelCaseOf(entry.first.as<std::string>());  // kebab-case too
      if (key == "route") {
        DROMEDARY_TRY(r, route(entry.second));
        out_.routes.push_back(std::move(r));
      } else if (key == "from") {
        RouteSource r;
        r.where = at(entry.first);
        DROMEDARY_TRY_VOID(from(entry.second, r));
        out_.routes.push_back(std::move(r));
      } else if (key == "beans") {
        DROMEDARY_TRY_VOID(beans(entry.second, out_.beans));
      } else if (key == "routeConfiguration") {
        DROMEDARY_TRY_VOID(routeConfiguration(entry.first, entry.second));
      } else if (key == "errorHandler") {
        RouteConfigurationSource c;
        c.where = at(entry.first);
        DROMEDARY_TRY_VOID(errorHandler(entry.second, c));
        out_.configurations.push_back(std::move(c));
      } else if (RouteConfigurationSource c; c.clausesOf(key)) {
        // onException, onCompletion, intercept ... at the top of a file, as Camel's YAML DSL
        // allows: a clause for every route, as if in a routeConfiguration without an id.
        c.where = at(entry.first);
        StepSource clause;
        clause.kind = key;
        clause.where = at(entry.first);
        DROMEDARY_TRY_VOID(stepBody(entry.second, clause));
        c.clausesOf(key)->push_back(std::move(clause));
        out_.configurations.push_back(std::move(c));
      } else if (key == "routeTemplate") {
        DROMEDARY_TRY_VOID(routeTemplate(entry.first, entry.second));
      } else if (key == "templatedRoute") {
        DROMEDARY_TRY_VOID(templatedRoute(entry.first, entry.second));
      } else if (key == "rest") {
        DROMEDARY_TRY_VOID(readYamlRest(entry.first, entry.second, *this, out_));
      } else if (key == "restConfiguration") {
        DROMEDARY_TRY_VOID(readYamlRestConfiguration(entry.first, entry.second, *this, out_));
      } else {
        return fileError(at(entry.first), fmt::format("unknown entry '{}'", key),
                         suggestion(key, {"route", "from", "routeConfiguration", "errorHandler",
                                          "onException", "onCompletion", "intercept",
                                          "interceptFrom", "interceptSendToEndpoint", "beans",
                                          "routeTemplate", "templatedRoute", "rest",
                                          "restConfiguration"}));
      }
    }
    return {};
  }

 private:
  // - routeTemplate:
  //     id: greeter
  //     parameters:
  //       - name: name
  //       - {name: greeting, defaultValue: Hello}
  //     from: {uri: "direct:{{name}}", steps: [...]}     (or route: {from: ...})
  Result<void> routeTemplate(const YAML::Node& key, const YAML::Node& node) {
    RouteTemplateSource t;
    t.where = at(key);
    if (!node.IsMap()) return fileError(at(node), "routeTemplate must be a map with id and from");
    bool has_id = false;
    bool has_route = false;
    for (const auto& kv : node) {
      std::string k = kv.first.as<std::string>();
      if (k == "id") {
        DROMEDARY_TRY(id, scalar(kv.second, k));
        t.id = std::move(id);
        has_id = true;
      } else if (k == "description") {
        DROMEDARY_TRY(unused, scalar(kv.second, k));
      } else if (k == "parameters") {
        DROMEDARY_TRY_VOID(templateParameters(kv.second, t.parameters));
      } else if (k == "from" || k == "route") {
        if (has_route) return fileError(at(kv.first), "a routeTemplate has one route: from or route");
        has_route = true;
        t.route.where = at(kv.first);
        if (k == "from") {
          DROMEDARY_TRY_VOID(from(kv.second, t.route));
        } else {
          DROMEDARY_TRY(r, route(kv.second));
          t.route = std::move(r);
        }
      } else if (k == "beans") {
        return fileError(at(kv.first), "beans in a routeTemplate cannot be created here",
                         "bind C++ processors with Context::bindProcessor and refer to them");
      } else {
        return fileError(at(kv.first), fmt::format("unknown key '{}' in routeTemplate", k),
                         suggestion(k, {"id", "description", "parameters", "from", "route"}));
      }
    }
    if (!has_id) return fileError(t.where, "routeTemplate needs 'id'");
    if (!has_route) return fileError(t.where, "routeTemplate needs 'from' (or 'route')");
    out_.templates.push_back(std::move(t));
    return {};
  }

  Result<void> templateParameters(const YAML::Node& node,
                                  std::vector<TemplateParameterSource>& out) {
    if (!node.IsSequence()) return fileError(at(node), "parameters must be a list");
    for (const YAML::Node& item : node) {
      if (!item.IsMap()) return fileError(at(item), "a parameter must be a map with name");
      TemplateParameterSource p;
      bool named = false;
      for (const auto& kv : item) {
        std::string k = kv.first.as<std::string>();
        DROMEDARY_TRY(value, scalar(kv.second, k));
        if (k == "name") {
          p.name = std::move(value);
          named = true;
        } else if (k == "defaultValue") {
          p.defaultValue = std::move(value);
        } else if (k == "required") {
          p.required = std::move(value);
        } else if (k == "description") {
          p.description = value.value;
        } else {
          return fileError(at(kv.first), fmt::format("unknown key '{}' in a template parameter", k),
                           suggestion(k, {"name", "defaultValue", "required", "description"}));
        }
      }
      if (!named) return fileError(at(item), "a template parameter needs 'name'");
      out.push_back(std::move(p));
    }
    return {};
  }

  // - templatedRoute:
  //     routeTemplateRef: greeter
  //     routeId: hello-bob
  //     parameters: [{name: name, value: bob}]
  Result<void> templatedRoute(const YAML::Node& key, const YAML::Node& node) {
    TemplatedRouteSource t;
    t.where = at(key);
    if (!node.IsMap()) return fileError(at(node), "templatedRoute must be a map with routeTemplateRef");
    bool has_ref = false;
    for (const auto& kv : node) {
      std::string k = kv.first.as<std::string>();
      if (k == "routeTemplateRef") {
        DROMEDARY_TRY(ref, scalar(kv.second, k));
        t.templateRef = std::move(ref);
        has_ref = true;
      } else if (k == "routeId") {
        DROMEDARY_TRY(id, scalar(kv.second, k));
        t.routeId = std::move(id);
      } else if (k == "parameters") {
        if (!kv.second.IsSequence()) return fileError(at(kv.second), "parameters must be a list");
        for (const YAML::Node& item : kv.second) {
          if (!item.IsMap() || !item["name"] || !item["value"]) {
            return fileError(at(item), "a parameter must be a map with name and value");
          }
          for (const auto& pk : item) {
            std::string name = pk.first.as<std::string>();
            if (name != "name" && name != "value") {
              return fileError(at(pk.first), fmt::format("unknown key '{}' in a parameter", name),
                               suggestion(name, {"name", "value"}));
            }
          }
          DROMEDARY_TRY(name, scalar(item["name"], "name"));
          DROMEDARY_TRY(value, scalar(item["value"], "value"));
          t.parameters.emplace_back(std::move(name), std::move(value));
        }
      } else if (k == "beans") {
        return fileError(at(kv.first), "beans in a templatedRoute cannot be created here",
                         "bind C++ processors with Context::bindProcessor and refer to them");
      } else {
        return fileError(at(kv.first), fmt::format("unknown key '{}' in templatedRoute", k),
                         suggestion(k, {"routeTemplateRef", "routeId", "parameters"}));
      }
    }
    if (!has_ref) return fileError(t.where, "templatedRoute needs 'routeTemplateRef'");
    out_.templatedRoutes.push_back(std::move(t));
    return {};
  }

  // - beans:
  //     - name: myProcessor
  //       type: com.acme.MyProcessor
  Result<void> step(const YAML::Node& node, StepSource& s) override { return stepBody(node, s); }

  Result<void> beans(const YAML::Node& node, std::vector<BeanSource>& out) override {
    if (!node.IsSequence()) return fileError(at(node), "beans must be a list");
    for (const YAML::Node& item : node) {
      if (!item.IsMap()) return fileError(at(item), "a bean must be a map with name and type");
      BeanSource bean;
      bool named = false;
      for (const auto& kv : item) {
        std::string key = kv.first.as<std::string>();
        if (key == "name") {
          DROMEDARY_TRY(name, scalar(kv.second, key));
          bean.name = std::move(name);
          named = true;
        } else if (key == "type") {
          DROMEDARY_TRY(type, scalar(kv.second, key));
          bean.type = type.value;
        } else if (key == "properties") {
          DROMEDARY_TRY_VOID(beanProperties(kv.second, "", bean.properties));
        }  // constructors, builders ...: they configure Java objects that are not made here
      }
      if (!named) return fileError(at(item), "a bean needs 'name'");
      out.push_back(std::move(bean));
    }
    return {};
  }

  // A bean's properties, nested maps flattened with dots.
  Result<void> beanProperties(const YAML::Node& node, const std::string& prefix,
                              std::vector<std::pair<std::string, Scalar>>& out) const {
    if (!node.IsMap()) return fileError(at(node), "a bean's properties must be a map");
    for (const auto& kv : node) {
      std::string key = prefix + kv.first.as<std::string>();
      if (kv.second.IsMap()) {
        DROMEDARY_TRY_VOID(beanProperties(kv.second, key + ".", out));
      } else {
        DROMEDARY_TRY(value, scalar(kv.second, key));
        out.emplace_back(std::move(key), std::move(value));
      }
    }
    return {};
  }

  Result<Scalar> scalar(const YAML::Node& node, std::string_view key) const override {
    if (!node.IsScalar()) {
      return fileError(at(node), fmt::format("'{}' must be a single value, not a {}", key,
                                             node.IsMap() ? "map" : node.IsSequence() ? "list"
                                                                                      : "null"));
    }
    return Scalar{node.Scalar(), at(node)};
  }


  Result<RouteSource> route(const YAML::Node& node) {
    RouteSource r;
    r.where = at(node);
    if (!node.IsMap()) return fileError(at(node), "route must be a map with from and its keys");
    bool has_from = false;
    for (const auto& kv : node) {
      // kebab-case keys too (`auto-startup`, `shutdown-running-task`), as Camel's YAML DSL.
      std::string key = eip::camelCaseOf(kv.first.as<std::string>());
      if (key == "from") {
        has_from = true;
        DROMEDARY_TRY_VOID(from(kv.second, r));
      } else {
        DROMEDARY_TRY(value, scalar(kv.second, key));
        value.where = at(kv.first);
        r.attributes.emplace_back(key, std::move(value));
      }
    }
    if (!has_from) return fileError(r.where, "route needs 'from'");
    return r;
  }

  Result<void> from(const YAML::Node& node, RouteSource& r) override {
    if (node.IsScalar()) {
      r.from = Scalar{node.Scalar(), at(node)};
      return {};
    }
    if (!node.IsMap()) return fileError(at(node), "from must be a map with uri and steps");
    bool has_uri = false;
    for (const auto& kv : node) {
      std::string key = kv.first.as<std::string>();
      if (key == "uri") {
        DROMEDARY_TRY(uri, scalar(kv.second, key));
        r.from = std::move(uri);
        has_uri = true;
      } else if (key == "parameters") {
        DROMEDARY_TRY_VOID(parameters(kv.second, r.parameters));
      } else if (key == "steps") {
        DROMEDARY_TRY_VOID(stepList(kv.second, r.steps));
      } else if (key == "variableReceive" || key == "variable-receive") {
        DROMEDARY_TRY(name, scalar(kv.second, key));
        r.fromVariableReceive = std::move(name);
      } else if (key == "id" || key == "description") {
        // Camel allows them on from; they name nothing here.
      } else {
        return fileError(at(kv.first), fmt::format("unknown key '{}' in from", key),
                         suggestion(key, {"uri", "parameters", "steps", "variableReceive"}));
      }
    }
    if (!has_uri) return fileError(at(node), "from needs 'uri'");
    return {};
  }

  Result<void> parameters(const YAML::Node& node, std::vector<std::pair<std::string, Scalar>>& out) {
    if (!node.IsMap()) return fileError(at(node), "parameters must be a map of option: value");
    for (const auto& kv : node) {
      std::string key = kv.first.as<std::string>();
      DROMEDARY_TRY(value, scalar(kv.second, key));
      out.emplace_back(key, std::move(value));
    }
    return {};
  }

  Result<void> stepList(const YAML::Node& node, std::vector<StepSource>& out) {
    if (node.IsNull()) return {};
    if (!node.IsSequence()) return fileError(at(node), "steps must be a list");
    for (const YAML::Node& item : node) {
      if (!item.IsMap() || item.size() != 1) {
        return fileError(at(item), "each step must be a map with one key, the step's name",
                         "e.g. '- to: mock:out' or '- setBody: {simple: ...}'");
      }
      auto entry = *item.begin();
      StepSource s;
      s.kind = canonicalStep(entry.first.as<std::string>());
      s.where = at(entry.first);
      // An unknown step is reported as one (by the translator, with suggestions) before
      // anything about the shape of what it holds.
      if (eip::findEipSchema(s.kind)) DROMEDARY_TRY_VOID(stepBody(entry.second, s));
      out.push_back(std::move(s));
    }
    return {};
  }

  // A step's key as its schema names it: Camel's aliases (`set-header`, kebab-case) become the
  // key (`setHeader`); an unknown one stays as written, for the translator's error.
  static std::string canonicalStep(const std::string& key) {
    const eip::EipSchema* schema = eip::findEipSchema(key);
    if (!schema) schema = eip::findEipSchema(eip::camelCaseOf(key));
    return schema ? std::string(schema->key) : key;
  }

  // The short forms (`to: uri`, `log: message`, `convertBodyTo: Type` ...): the attribute the
  // step's schema names as its shorthand.
  static std::string_view shortKey(std::string_view kind) {
    const eip::EipSchema* schema = eip::findEipSchema(kind);
    return schema ? schema->shorthand : std::string_view();
  }

  Result<void> stepBody(const YAML::Node& node, StepSource& s) {
    if (node.IsNull()) return {};
    if (node.IsScalar()) {
      std::string_view key = shortKey(s.kind);
      if (key.empty()) {
        return fileError(at(node), fmt::format("{} must be a map of its keys", s.kind));
      }
      s.attributes.emplace_back(std::string(key), Scalar{node.Scalar(), at(node)});
      return {};
    }
    if (!node.IsMap()) return fileError(at(node), fmt::format("{} must be a map of its keys", s.kind));
    for (const auto& kv : node) {
      // Camel's YAML DSL takes its keys in kebab-case too (`logging-level`, `do-catch`).
      std::string key = eip::camelCaseOf(kv.first.as<std::string>());
      if (key == "steps") {
        DROMEDARY_TRY_VOID(stepList(kv.second, s.steps));
      } else if (key == "parameters") {
        DROMEDARY_TRY_VOID(parameters(kv.second, s.parameters));
      } else if ((s.kind == "setHeaders" && key == "headers") ||
                 (s.kind == "setVariables" && key == "variables")) {
        // Camel 4's setHeaders (setVariables): a list of {name, <language>: text}, each a
        // setHeader (setVariable).
        if (!kv.second.IsSequence()) {
          return fileError(at(kv.second),
                           fmt::format("{} must be a list of a name and an expression", key));
        }
        for (const YAML::Node& item : kv.second) {
          StepSource h;
          h.kind = key == "headers" ? "setHeader" : "setVariable";
          h.where = at(item);
          DROMEDARY_TRY_VOID(stepBody(item, h));
          s.steps.push_back(std::move(h));
        }
      } else if (s.kind == "choice" && key == "when") {
        DROMEDARY_TRY_VOID(whens(kv.second, s));
      } else if (s.kind == "choice" && key == "otherwise") {
        StepSource other;
        other.kind = "otherwise";
        other.where = at(kv.first);
        DROMEDARY_TRY_VOID(stepBody(kv.second, other));
        s.otherwise.push_back(std::move(other));
      } else if (key == "exception") {
        DROMEDARY_TRY_VOID(exceptionNames(kv.second, s));
      } else if (key == "onWhen" || key == "handled" || key == "continued" ||
                 key == "retryWhile" || key == "correlationExpression" ||
                 key == "completionPredicate") {
        DROMEDARY_TRY_VOID(predicate(kv.first, kv.second, s));
      } else if (key == "redeliveryPolicy") {
        DROMEDARY_TRY_VOID(parameters(kv.second, s.policy.vector()));
      } else if (const eip::ClauseSchema* clause = eip::findClause(s.kind, key)) {
        StepSource p;  // a loadBalance policy, a resequence config: its options
        p.kind = std::string(clause->key);
        p.where = at(kv.first);
        DROMEDARY_TRY_VOID(stepBody(kv.second, p));
        s.policies.push_back(std::move(p));
      } else if (s.kind == "circuitBreaker" && key == "onFallback") {
        StepSource f;
        f.kind = "onFallback";
        f.where = at(kv.first);
        DROMEDARY_TRY_VOID(stepBody(kv.second, f));
        s.fallback.push_back(std::move(f));
      } else if ((key == "recordException" || key == "ignoreException") &&
                 kv.second.IsSequence()) {
        // resilience4jConfiguration's lists of exception types: one attribute per type.
        for (const YAML::Node& item : kv.second) {
          DROMEDARY_TRY(value, scalar(item, key));
          s.attributes.emplace_back(key, std::move(value));
        }
      } else if (s.kind == "doTry" && key == "doCatch") {
        DROMEDARY_TRY_VOID(doCatches(kv.second, s));
      } else if (s.kind == "doTry" && key == "doFinally") {
        StepSource f;
        f.kind = "doFinally";
        f.where = at(kv.first);
        DROMEDARY_TRY_VOID(stepBody(kv.second, f));
        s.finally.push_back(std::move(f));
      } else if (isExpressionKey(key) && !isAttributeOf(s.kind, key)) {
        DROMEDARY_TRY_VOID(expression(kv.first, kv.second, s));
      } else {
        // A misspelt key holding a map is a misspelt key, not a shape mistake.
        if (!kv.second.IsScalar()) DROMEDARY_TRY_VOID(refuseUnknownKey(s.kind, key, at(kv.first)));
        DROMEDARY_TRY(value, scalar(kv.second, key));
        value.where = at(kv.first);
        s.attributes.emplace_back(key, std::move(value));
      }
    }
    return {};
  }

  Result<void> whens(const YAML::Node& node, StepSource& choice) {
    if (!node.IsSequence()) return fileError(at(node), "when must be a list");
    for (const YAML::Node& item : node) {
      StepSource w;
      w.kind = "when";
      w.where = at(item);
      DROMEDARY_TRY_VOID(stepBody(item, w));
      choice.whens.push_back(std::move(w));
    }
    return {};
  }

  // An EIP's own attribute named as a language is the attribute (bean's `method`).
  static bool isAttributeOf(std::string_view eip, std::string_view key) {
    const eip::EipSchema* schema = eip::findEipSchema(eip);
    if (!schema) return false;
    for (const eip::AttributeSchema& a : schema->attributes) {
      if (a.name == key) return true;
    }
    return false;
  }

  static bool isExpressionKey(std::string_view key) {
    if (key == "expression" || isJvmLanguage(key)) return true;
    for (std::string_view l : expressionLanguages()) {
      if (l == key) return true;
    }
    return false;
  }

  // `simple: text`, `simple: {expression: text}`, `expression: {simple: text}` and
  // `expression: {simple: {expression: text}}`.
  Result<void> expression(const YAML::Node& key_node, const YAML::Node& value, StepSource& s) {
    std::string key = eip::camelCaseOf(key_node.as<std::string>());
    if (s.expression) {
      return fileError(at(key_node), fmt::format("{} has more than one expression", s.kind));
    }
    if (key == "expression") {
      if (!value.IsMap() || value.size() != 1) {
        return fileError(at(value), "expression must hold one language",
                         "e.g. expression: {simple: \"${body}\"}");
      }
      auto inner = *value.begin();
      std::string language = eip::camelCaseOf(inner.first.as<std::string>());
      if (language == "tokenize") return tokenize(inner.first, inner.second, s);
      s.expression = ExpressionSource{language, {}, at(inner.first), {}};
      DROMEDARY_TRY(text, expressionText(inner.second, language, &s.expression->options));
      s.expression->text = std::move(text);
      return {};
    }
    if (key == "tokenize") return tokenize(key_node, value, s);
    s.expression = ExpressionSource{key, {}, at(key_node), {}};
    DROMEDARY_TRY(text, expressionText(value, key, &s.expression->options));
    s.expression->text = std::move(text);
    return {};
  }

  // `tokenize: "\n"` or `tokenize: {token: "\n", group: 10, regex: false, skipFirst: true}`.
  Result<void> tokenize(const YAML::Node& key_node, const YAML::Node& value, StepSource& s) {
    ExpressionSource e{"tokenize", {}, at(key_node), {}};
    if (value.IsScalar()) {
      e.text = value.Scalar();
    } else if (value.IsMap()) {
      for (const auto& kv : value) {
        std::string key = kv.first.as<std::string>();
        DROMEDARY_TRY(v, scalar(kv.second, key));
        v.where = at(kv.first);
        e.options.emplace_back(key, std::move(v));
      }
    } else {
      return fileError(at(value), "tokenize needs its token", "e.g. tokenize: {token: \"\\n\"}");
    }
    s.expression = std::move(e);
    return {};
  }

  // A language's options (jsonpath's suppressExceptions ...) go to `options`, for the language
  // to check when the route starts; the others take none but Camel's id, trim and resultType.
  Result<std::string> expressionText(const YAML::Node& node, std::string_view language,
                                     std::vector<std::pair<std::string, Scalar>>* options = nullptr) {
    if (node.IsScalar()) return node.Scalar();
    if (node.IsMap()) {
      std::optional<std::string> found;
      for (const auto& kv : node) {
        std::string key = kv.first.as<std::string>();
        if (key == "expression") {
          DROMEDARY_TRY(text, scalar(kv.second, key));
          found = text.value;
          continue;
        }
        if (languageTakesOptions(language) && options && key != "id") {
          DROMEDARY_TRY(value, scalar(kv.second, key));
          value.where = at(kv.first);
          options->emplace_back(std::move(key), std::move(value));
          continue;
        }
        if (key != "id" && key != "trim" && key != "resultType") {
          return fileError(at(kv.first), fmt::format("unknown key '{}' in {}", key, language),
                           suggestion(key, {"expression"}));
        }
      }
      if (found) return *found;
    }
    return fileError(at(node), fmt::format("{} needs its expression text", language));
  }

  // - routeConfiguration:
  //     id: cfg
  //     errorHandler: {...}
  //     onException: [{onException: {...}}]
  //     onCompletion: [{onCompletion: {...}}]
  //     intercept: [{intercept: {...}}]          (interceptFrom, interceptSendToEndpoint too)
  Result<void> routeConfiguration(const YAML::Node& key, const YAML::Node& node) {
    RouteConfigurationSource c;
    c.where = at(key);
    if (!node.IsMap()) return fileError(at(node), "routeConfiguration must be a map");
    for (const auto& kv : node) {
      std::string k = eip::camelCaseOf(kv.first.as<std::string>());
      if (k == "id") {
        DROMEDARY_TRY(id, scalar(kv.second, k));
        c.id = std::move(id);
      } else if (k == "errorHandler") {
        DROMEDARY_TRY_VOID(errorHandler(kv.second, c));
      } else if (c.clausesOf(k)) {
        if (!kv.second.IsSequence()) {
          return fileError(at(kv.second), fmt::format("{} must be a list", k),
                           fmt::format("write '- {}:' followed by its keys", k));
        }
        for (const YAML::Node& item : kv.second) {
          if (!item.IsMap() || item.size() != 1 ||
              eip::camelCaseOf(item.begin()->first.as<std::string>()) != k) {
            return fileError(at(item), fmt::format("each entry of {} must be '{}:'", k, k));
          }
          StepSource clause;
          clause.kind = k;
          clause.where = at(item.begin()->first);
          DROMEDARY_TRY_VOID(stepBody(item.begin()->second, clause));
          c.clausesOf(k)->push_back(std::move(clause));
        }
      } else if (k == "description" || k == "precondition") {
        // documentation only
      } else {
        return fileError(at(kv.first), fmt::format("unknown key '{}' in routeConfiguration", k),
                         suggestion(k, {"id", "errorHandler", "onException", "onCompletion",
                                        "intercept", "interceptFrom",
                                        "interceptSendToEndpoint"}));
      }
    }
    out_.configurations.push_back(std::move(c));
    return {};
  }

  // errorHandler: {deadLetterChannel: {...}} | {defaultErrorHandler: {...}} | {noErrorHandler: {}}
  Result<void> errorHandler(const YAML::Node& node, RouteConfigurationSource& c) {
    if (!node.IsMap() || node.size() != 1) {
      return fileError(at(node), "errorHandler must hold one handler",
                       "defaultErrorHandler, deadLetterChannel or noErrorHandler");
    }
    auto entry = *node.begin();
    StepSource h;
    h.kind = entry.first.as<std::string>();
    h.where = at(entry.first);
    DROMEDARY_TRY_VOID(stepBody(entry.second, h));
    c.errorHandler.push_back(std::move(h));
    return {};
  }

  // `exception: [a, b]` or `exception: a`.
  Result<void> exceptionNames(const YAML::Node& node, StepSource& s) {
    if (node.IsScalar()) {
      s.exceptions.push_back(Scalar{node.Scalar(), at(node)});
      return {};
    }
    if (!node.IsSequence()) return fileError(at(node), "exception must be a list of type names");
    for (const YAML::Node& item : node) {
      DROMEDARY_TRY(name, scalar(item, "exception"));
      s.exceptions.push_back(std::move(name));
    }
    return {};
  }

  // `handled: {constant: true}`, `onWhen: {simple: ...}`, or the shorthand `handled: true`.
  Result<void> predicate(const YAML::Node& key_node, const YAML::Node& value, StepSource& s) {
    std::string key = eip::camelCaseOf(key_node.as<std::string>());
    if (value.IsScalar()) {
      s.predicates.emplace_back(key, ExpressionSource{"constant", value.Scalar(), at(value), {}});
      return {};
    }
    if (!value.IsMap() || value.size() != 1) {
      return fileError(at(value), fmt::format("{} must hold one expression", key),
                       "e.g. " + key + ": {simple: \"${header.retry} == true\"}");
    }
    StepSource holder;
    holder.kind = key;
    auto inner = *value.begin();
    DROMEDARY_TRY_VOID(expression(inner.first, inner.second, holder));
    s.predicates.emplace_back(key, std::move(*holder.expression));
    return {};
  }

  Result<void> doCatches(const YAML::Node& node, StepSource& s) {
    if (!node.IsSequence()) return fileError(at(node), "doCatch must be a list");
    for (const YAML::Node& item : node) {
      StepSource c;
      c.kind = "doCatch";
      c.where = at(item);
      DROMEDARY_TRY_VOID(stepBody(item, c));
      s.catches.push_back(std::move(c));
    }
    return {};
  }

  std::string file_;
  FileSources& out_;
  int first_line_ = 0;  // of the piece being read, in the file (0-based)
};

}  // namespace

Result<void> readYamlRoutes(std::string_view text, const std::string& file, FileSources& out) {
  DROMEDARY_TRY_VOID(refuseNulBytes(text, file));
  // A JBang script's first line (`///usr/bin/env jbang ... camel@apache/camel pipe "$0"`),
  // which makes the file runnable, is a comment here: the `---` after it starts the routes.
  std::string script;
  if (text.starts_with("///")) {
    script = std::string(text);
    script[0] = '#';
    text = script;
  }
  DROMEDARY_TRY_VOID(refuseSecondDocument(text, file));
  try {
    if (std::vector<YamlPiece> pieces = splitTopLevelEntries(text); pieces.size() > 1) {
      FileSources mine;
      YamlNodeBudget budget(text);
      DROMEDARY_TRY(read, YamlReader(file, mine).readPieces(pieces, budget));
      if (read) {
        appendSources(out, std::move(mine));
        return {};
      }
    }
    YamlNodeBudget budget(text);
    return YamlReader(file, out).readWhole(text, budget);
  } catch (const YAML::Exception& e) {
    return fileError(markRef(file, e.mark), fmt::format("invalid YAML: {}", e.msg));
  }
}

}  // namespace dromedary::dsl

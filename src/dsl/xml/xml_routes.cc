// SPDX-License-Identifier: Apache-2.0
// Camel's XML DSL read into RouteSources: `<routes>` of `<route>` (the XML IO DSL), a lone
// `<route>`, or a Spring XML `<camelContext>` (inside `<beans>`, whose other elements are
// skipped and reported).
//
//   <routes xmlns="http://camel.apache.org/schema/spring">
//     <route id="hello">
//       <from uri="direct:hello"/>
//       <setBody><simple>Hello ${body}</simple></setBody>
//       <to uri="mock:out"/>
//     </route>
//   </routes>
#include <algorithm>

#include <pugixml.hpp>

#include <fmt/format.h>

#include "core/text.h"
#include "eip/eip_schema.h"
#include "dsl/loaders.h"
#include "dsl/file_source.h"
#include "dsl/xml/xml_beans.h"
#include "dsl/xml/xml_places.h"

namespace dromedary::dsl {

namespace {

bool isLanguage(std::string_view name) {
  if (isJvmLanguage(name)) return true;
  for (std::string_view l : expressionLanguages()) {
    if (l == name) return true;
  }
  return false;
}

class XmlReader {
 public:
  XmlReader(std::string& text, std::string file, FileSources& out,
            std::vector<std::string>& ignored)
      : text_(text), places_(text, std::move(file)), out_(out), ignored_(ignored) {}

  SourceRef at(ptrdiff_t offset) const { return places_.at(offset); }
  SourceRef at(const pugi::xml_node& node) const { return places_.at(node); }
  SourceRef at(const pugi::xml_node& node, const pugi::xml_attribute& attribute) const {
    return places_.at(node, attribute);
  }

  Result<void> read() {
    pugi::xml_document doc;
    // In place: the document's names and values are the file's own text (ended by NULs that
    // the parser writes over it), not a copy of it, which was a tenth of the peak when loading
    // a big file. Lines are counted (places_) before the text is changed.
    pugi::xml_parse_result parsed = doc.load_buffer_inplace(
        text_.data(), text_.size(), pugi::parse_default | pugi::parse_ws_pcdata_single);
    if (!parsed) {
      return fileError(at(parsed.offset), fmt::format("invalid XML: {}", parsed.description()));
    }
    DROMEDARY_TRY_VOID(checkShape(doc));
    return container(doc.document_element(), true);
  }

 private:
  // What the reader and translator would otherwise take in silence or overflow their stack
  // on: a second root element (its routes were dropped) and nesting past kMaxFileDepth.
  // Walked without recursion.
  Result<void> checkShape(const pugi::xml_document& doc) const {
    const pugi::xml_node first = doc.document_element();
    for (pugi::xml_node n = first.next_sibling(); n; n = n.next_sibling()) {
      if (n.type() == pugi::node_element) {
        return fileError(at(n), fmt::format("a second root element <{}>", n.name()),
                         fmt::format("a route file has one root; put its routes in <{}>",
                                     first.name()));
      }
    }
    std::vector<std::pair<pugi::xml_node, size_t>> pending{{first, 1}};
    while (!pending.empty()) {
      auto [node, depth] = pending.back();
      pending.pop_back();
      if (depth > kMaxFileDepth) {
        return fileError(at(node), fmt::format("elements nested deeper than {} levels",
                                               kMaxFileDepth));
      }
      for (pugi::xml_node child : node.children()) {
        if (child.type() == pugi::node_element) pending.emplace_back(child, depth + 1);
      }
    }
    return {};
  }

  // routes, route, routeConfiguration(s), camelContext or beans.
  Result<void> container(const pugi::xml_node& node, bool top) {
    std::string_view name = localName(node);
    if (name == "route") {
      DROMEDARY_TRY(r, route(node));
      out_.routes.push_back(std::move(r));
      return {};
    }
    if (name == "routeConfiguration") return routeConfiguration(node);
    if (name == "rest") return rest(node);
    if (name == "rests") {
      for (pugi::xml_node child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        if (localName(child) == "rest") {
          DROMEDARY_TRY_VOID(rest(child));
        } else if (localName(child) == "restConfiguration") {
          restConfiguration(child);
        } else {
          return fileError(at(child), fmt::format("unknown element <{}> in <rests>", localName(child)),
                           suggestion(localName(child), {"rest", "restConfiguration"}));
        }
      }
      return {};
    }
    if (name == "routeTemplate") return routeTemplate(node);
    if (name == "templatedRoute") return templatedRoute(node);
    if (name == "routeTemplates" || name == "templatedRoutes") {
      std::string_view item = name == "routeTemplates" ? "routeTemplate" : "templatedRoute";
      for (pugi::xml_node child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        if (localName(child) != item) {
          return fileError(at(child), fmt::format("unknown element <{}> in <{}>", localName(child), name),
                           suggestion(localName(child), {item}));
        }
        DROMEDARY_TRY_VOID(item == "routeTemplate" ? routeTemplate(child) : templatedRoute(child));
      }
      return {};
    }
    // <camel> is Camel 4's root of the XML IO DSL: routes, templates and configurations.
    if (name == "routes" || name == "camelContext" || name == "routeConfigurations" ||
        name == "camel") {
      // Spring's <camelContext> holds context-wide onException, onCompletion and
      // <errorHandler id> elements; errorHandlerRef picks the context's handler.
      RouteConfigurationSource context_wide;
      context_wide.where = at(node);
      std::string handler_ref = node.attribute("errorHandlerRef").value();
      pugi::xml_node parent = node;
      if (name != "routeConfigurations") {  // the routes' sources, at their number
        size_t count = 0;
        for (pugi::xml_node child : node.children()) {
          count += child.type() == pugi::node_element && localName(child) == "route";
        }
        out_.routes.reserve(out_.routes.size() + count);
      }
      for (pugi::xml_node child = parent.first_child(), next; child; child = next) {
        next = child.next_sibling();
        if (child.type() != pugi::node_element) continue;
        std::string_view cn = localName(child);
        if (cn == "route" && name != "routeConfigurations") {
          DROMEDARY_TRY(r, route(child));
          out_.routes.push_back(std::move(r));
          // Read: its nodes go, and pugixml frees each page of them once all of its nodes
          // are gone, so that a big file's document and its routes' sources are not all held
          // at once (the positions were taken, and names and values are the file's text).
          parent.remove_child(child);
        } else if (cn == "routeConfiguration") {
          DROMEDARY_TRY_VOID(routeConfiguration(child));
        } else if (cn == "rest" && name != "routeConfigurations") {
          DROMEDARY_TRY_VOID(rest(child));
        } else if (cn == "restConfiguration" && name != "routeConfigurations") {
          restConfiguration(child);
        } else if ((name == "camelContext" || name == "camel") && cn == "routeTemplate") {
          DROMEDARY_TRY_VOID(routeTemplate(child));
        } else if ((name == "camelContext" || name == "camel") && cn == "templatedRoute") {
          DROMEDARY_TRY_VOID(templatedRoute(child));
        } else if (name == "camelContext" && context_wide.clausesOf(cn)) {
          // onException, onCompletion, intercept, interceptFrom, interceptSendToEndpoint
          DROMEDARY_TRY(clause, step(child));
          context_wide.clausesOf(cn)->push_back(std::move(clause));
        } else if (name == "camelContext" && cn == "errorHandler") {
          // <errorHandler id="x" type="DeadLetterChannel" ...>: chosen by errorHandlerRef
          // (context) or by a route's errorHandlerRef.
          RouteConfigurationSource handler;
          handler.where = at(child);
          pugi::xml_attribute id = child.attribute("id");
          if (!id) return fileError(at(child), "<errorHandler> needs 'id'");
          if (handler_ref != id.value()) handler.id = Scalar{id.value(), at(child, id)};
          DROMEDARY_TRY(h, errorHandler(child));
          handler.errorHandler.push_back(std::move(h));
          out_.configurations.push_back(std::move(handler));
        } else if (name == "camelContext" && (cn == "propertyPlaceholder" || cn == "jmxAgent")) {
          ignore(child);
        } else if (name == "camelContext" && cn == "routeContextRef") {
          pugi::xml_attribute ref = child.attribute("ref");
          if (!ref) return fileError(at(child), "<routeContextRef> needs 'ref'");
          out_.routeContextRefs.push_back(Scalar{ref.value(), at(child, ref)});
        } else if (name == "camel" && cn == "bean") {
          DROMEDARY_TRY_VOID(camelBean(child));
        } else if (name == "camel" && cn == "beans") {
          springBeans(child);  // Spring's <beans> inside Camel's root, as Camel JBang reads it
        } else {
          return fileError(at(child), fmt::format("unknown element <{}> in <{}>", cn, name),
                           suggestion(cn, {"route", "routeConfiguration", "onException",
                                           "onCompletion", "intercept", "interceptFrom",
                                           "interceptSendToEndpoint", "errorHandler",
                                           "routeTemplate", "templatedRoute", "rest",
                                           "restConfiguration", "bean", "beans",
                                           "routeContextRef"}));
        }
      }
      if (!context_wide.onExceptions.empty() || !context_wide.onCompletions.empty() ||
          !context_wide.intercepts.empty()) {
        out_.configurations.push_back(std::move(context_wide));
      }
      return {};
    }
    if (name == "beans" && top) {
      // A Spring file: its <camelContext>, its <routeContext>s (routes a camelContext takes
      // in, maybe from another file), and its beans; a file of beans alone is fine too.
      for (pugi::xml_node child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        if (localName(child) == "camelContext") {
          DROMEDARY_TRY_VOID(container(child, false));
        } else if (localName(child) == "routeContext") {
          DROMEDARY_TRY_VOID(routeContext(child));
        }
      }
      springBeans(node);
      return {};
    }
    return fileError(at(node), fmt::format("unknown root element <{}>", name),
                     "expected <routes>, <route>, <routeConfiguration>, <routeTemplates>, "
                     "<templatedRoutes>, <rests>, <camel>, <camelContext> or Spring's <beans>");
  }

  // Accepts the attributes in `known` (and xmlns); anything else is an error naming `element`.
  Result<void> onlyAttributes(const pugi::xml_node& node, std::string_view element,
                              const std::vector<std::string_view>& known) {
    for (pugi::xml_attribute a : node.attributes()) {
      std::string_view an = a.name();
      if (an.starts_with("xmlns") || std::find(known.begin(), known.end(), an) != known.end()) {
        continue;
      }
      return fileError(at(node, a), fmt::format("unknown attribute '{}' in {}", an, element),
                       suggestion(an, known));
    }
    return {};
  }

  std::optional<Scalar> attributeOf(const pugi::xml_node& node, const char* name) const {
    pugi::xml_attribute a = node.attribute(name);
    if (!a) return std::nullopt;
    return Scalar{a.value(), at(node, a)};
  }

  // <restConfiguration contextPath="/api" port="8080"/>: its attributes.
  void restConfiguration(const pugi::xml_node& node) {
    RestConfigurationSource c;
    c.where = at(node);
    for (pugi::xml_attribute a : node.attributes()) {
      if (std::string_view(a.name()).starts_with("xmlns")) continue;
      c.attributes.emplace_back(a.name(), Scalar{a.value(), at(node, a)});
    }
    out_.restConfigurations.push_back(std::move(c));
  }

  // A rest's or verb's attributes; Camel 2/3's `uri` is today's `path`.
  void restAttributes(const pugi::xml_node& node,
                      std::vector<std::pair<std::string, Scalar>>& out) const {
    for (pugi::xml_attribute a : node.attributes()) {
      std::string_view an = a.name();
      if (an.starts_with("xmlns")) continue;
      out.emplace_back(an == "uri" ? "path" : an, Scalar{a.value(), at(node, a)});
    }
  }

  // <rest path="/users">
  //   <get path="/{id}"><to uri="direct:getUser"/></get>
  //   <post><to uri="direct:addUser"/></post>
  // </rest>
  Result<void> rest(const pugi::xml_node& node) {
    RestSource r;
    r.where = at(node);
    restAttributes(node, r.attributes);
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view cn = localName(child);
      if (cn == "get" || cn == "post" || cn == "put" || cn == "patch" || cn == "delete" ||
          cn == "head") {
        DROMEDARY_TRY_VOID(restVerb(child, r));
      } else if (cn == "openApi") {
        // Camel 4's contract-first REST: <openApi specification="petstore.json"/>.
        RestOpenApiSource o;
        o.where = at(child);
        restAttributes(child, o.attributes);
        r.openApi = std::move(o);
      } else if (cn == "description" || cn == "securityDefinitions" || cn == "securityRequirements") {
        // Documentation for OpenAPI.
      } else {
        return fileError(at(child), fmt::format("unknown element <{}> in <rest>", cn),
                         suggestion(cn, {"get", "post", "put", "patch", "delete", "head",
                                         "openApi", "description"}));
      }
    }
    out_.rests.push_back(std::move(r));
    return {};
  }

  Result<void> restVerb(const pugi::xml_node& node, RestSource& rest) {
    RestVerbSource v;
    v.method = std::string(localName(node));
    v.where = at(node);
    restAttributes(node, v.attributes);
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view cn = localName(child);
      if (cn == "to" || cn == "toD") {
        if (!v.to.empty()) return fileError(at(child), fmt::format("a <{}> has one <to>", v.method));
        DROMEDARY_TRY(to, step(child));
        v.to.push_back(std::move(to));
      } else if (cn == "param") {
        v.params.push_back(at(child));
        if (!v.paramDefault) v.paramDefault = attributeOf(child, "defaultValue");
      } else if (cn == "description" || cn == "responseMessage" || cn == "security") {
        // Documentation for OpenAPI.
      } else if (cn == "route") {
        return fileError(at(child), "a route inside a rest verb is Camel 2's form",
                         "put the steps in a route from direct:name and write <to uri=\"direct:name\"/>");
      } else {
        return fileError(at(child), fmt::format("unknown element <{}> in <{}>", cn, v.method),
                         suggestion(cn, {"to", "toD", "param", "description", "responseMessage"}));
      }
    }
    rest.verbs.push_back(std::move(v));
    return {};
  }

  // <routeTemplate id="greeter">
  //   <templateParameter name="name"/>
  //   <templateParameter name="greeting" defaultValue="Hello"/>
  //   <route> <from uri="direct:{{name}}"/> ... </route>
  // </routeTemplate>
  Result<void> routeTemplate(const pugi::xml_node& node) {
    DROMEDARY_TRY_VOID(onlyAttributes(node, "routeTemplate", {"id", "description"}));
    RouteTemplateSource t;
    t.where = at(node);
    std::optional<Scalar> id = attributeOf(node, "id");
    if (!id) return fileError(t.where, "<routeTemplate> needs 'id'");
    t.id = std::move(*id);
    bool has_route = false;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view cn = localName(child);
      if (cn == "templateParameter") {
        DROMEDARY_TRY_VOID(onlyAttributes(child, "templateParameter",
                                          {"name", "defaultValue", "required", "description"}));
        TemplateParameterSource p;
        std::optional<Scalar> pname = attributeOf(child, "name");
        if (!pname) return fileError(at(child), "<templateParameter> needs 'name'");
        p.name = std::move(*pname);
        p.defaultValue = attributeOf(child, "defaultValue");
        p.required = attributeOf(child, "required");
        p.description = child.attribute("description").value();
        t.parameters.push_back(std::move(p));
      } else if (cn == "route") {
        if (has_route) return fileError(at(child), "a <routeTemplate> holds one <route>");
        has_route = true;
        DROMEDARY_TRY(r, route(child));
        t.route = std::move(r);
      } else {
        return fileError(at(child), fmt::format("unknown element <{}> in <routeTemplate>", cn),
                         suggestion(cn, {"templateParameter", "route"}));
      }
    }
    if (!has_route) return fileError(t.where, "<routeTemplate> needs a <route>");
    out_.templates.push_back(std::move(t));
    return {};
  }

  // <templatedRoute routeTemplateRef="greeter" routeId="hello-bob">
  //   <parameter name="name" value="bob"/>
  // </templatedRoute>
  Result<void> templatedRoute(const pugi::xml_node& node) {
    DROMEDARY_TRY_VOID(onlyAttributes(node, "templatedRoute", {"routeTemplateRef", "routeId"}));
    TemplatedRouteSource t;
    t.where = at(node);
    std::optional<Scalar> ref = attributeOf(node, "routeTemplateRef");
    if (!ref) return fileError(t.where, "<templatedRoute> needs 'routeTemplateRef'");
    t.templateRef = std::move(*ref);
    t.routeId = attributeOf(node, "routeId");
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (localName(child) != "parameter") {
        return fileError(at(child), fmt::format("unknown element <{}> in <templatedRoute>",
                                                localName(child)),
                         suggestion(localName(child), {"parameter"}));
      }
      DROMEDARY_TRY_VOID(onlyAttributes(child, "parameter", {"name", "value"}));
      std::optional<Scalar> name = attributeOf(child, "name");
      std::optional<Scalar> value = attributeOf(child, "value");
      if (!name || !value) return fileError(at(child), "<parameter> needs 'name' and 'value'");
      t.parameters.emplace_back(std::move(*name), std::move(*value));
    }
    out_.templatedRoutes.push_back(std::move(t));
    return {};
  }

  // <routeConfiguration id="x"> <errorHandler>..</errorHandler> <onException>.. </...>
  Result<void> routeConfiguration(const pugi::xml_node& node) {
    RouteConfigurationSource c;
    c.where = at(node);
    for (pugi::xml_attribute a : node.attributes()) {
      std::string_view an = a.name();
      if (an == "id") {
        c.id = Scalar{a.value(), at(node, a)};
      } else if (!an.starts_with("xmlns") && an != "precondition") {
        return fileError(at(node, a), fmt::format("unknown attribute '{}' in routeConfiguration", an),
                         suggestion(an, {"id"}));
      }
    }
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view cn = localName(child);
      if (cn == "errorHandler") {
        DROMEDARY_TRY(h, errorHandler(child));
        c.errorHandler.push_back(std::move(h));
      } else if (c.clausesOf(cn)) {
        DROMEDARY_TRY(clause, step(child));
        c.clausesOf(cn)->push_back(std::move(clause));
      } else {
        return fileError(at(child), fmt::format("unknown element <{}> in <routeConfiguration>", cn),
                         suggestion(cn, {"errorHandler", "onException", "onCompletion",
                                         "intercept", "interceptFrom",
                                         "interceptSendToEndpoint"}));
      }
    }
    out_.configurations.push_back(std::move(c));
    return {};
  }

  // Spring's <errorHandler type="DeadLetterChannel" deadLetterUri=...> or the XML DSL's
  // <errorHandler><deadLetterChannel deadLetterUri=.../></errorHandler>.
  Result<StepSource> errorHandler(const pugi::xml_node& node) {
    if (pugi::xml_attribute type = node.attribute("type")) {
      StepSource h = StepSource();
      std::string_view t = type.value();
      h.kind = t == "DeadLetterChannel"    ? "deadLetterChannel"
               : t == "DefaultErrorHandler" ? "defaultErrorHandler"
               : t == "NoErrorHandler"      ? "noErrorHandler"
                                            : std::string(t);
      h.where = at(node, type);
      for (pugi::xml_attribute a : node.attributes()) {
        std::string_view an = a.name();
        if (an == "type" || an == "id" || an.starts_with("xmlns")) continue;
        h.attributes.emplace_back(a.name(), Scalar{a.value(), at(node, a)});
      }
      for (pugi::xml_node child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        if (localName(child) != "redeliveryPolicy") {
          return fileError(at(child), fmt::format("unknown element <{}> in <errorHandler>",
                                                  localName(child)),
                           suggestion(localName(child), {"redeliveryPolicy"}));
        }
        policy(child, h);
      }
      return h;
    }
    pugi::xml_node inner;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (inner) return fileError(at(child), "<errorHandler> holds one handler");
      inner = child;
    }
    if (!inner) {
      return fileError(at(node), "<errorHandler> needs a handler",
                       "<deadLetterChannel>, <defaultErrorHandler> or <noErrorHandler>");
    }
    return step(inner);
  }

  void policy(const pugi::xml_node& node, StepSource& s) {
    for (pugi::xml_attribute a : node.attributes()) {
      if (std::string_view(a.name()).starts_with("xmlns")) continue;
      s.policy.emplace_back(a.name(), Scalar{a.value(), at(node, a)});
    }
  }

  // <onWhen><simple>...</simple></onWhen>, <handled><constant>true</constant></handled> ...
  Result<void> predicate(const pugi::xml_node& node, StepSource& s) {
    pugi::xml_node language;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (language || !isLanguage(localName(child))) {
        return fileError(at(child), fmt::format("<{}> holds one expression", localName(node)),
                         "e.g. <simple>${header.retry} == true</simple>");
      }
      language = child;
    }
    if (!language) {
      return fileError(at(node), fmt::format("<{}> needs an expression", localName(node)),
                       "e.g. <constant>true</constant>");
    }
    ExpressionSource e{std::string(localName(language)), language.child_value(), at(language), {}};
    if (languageTakesOptions(e.language)) {
      for (pugi::xml_attribute a : language.attributes()) {
        e.options.emplace_back(a.name(), Scalar{a.value(), at(language, a)});
      }
    }
    s.predicates.emplace_back(std::string(localName(node)), std::move(e));
    return {};
  }

  static bool isInterceptor(std::string_view kind) {
    return kind == "intercept" || kind == "interceptFrom" || kind == "interceptSendToEndpoint";
  }

  // An interceptor's <onWhen> (Camel 3's <when>): its predicate, and the steps Camel's
  // examples also put inside it (they run when it holds, as the interceptor's own do).
  Result<void> interceptorWhen(const pugi::xml_node& node, StepSource& s) {
    pugi::xml_node language;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (!language && isLanguage(localName(child))) {
        language = child;
        continue;
      }
      if (!language) {
        return fileError(at(child), fmt::format("<{}> starts with its predicate", localName(node)),
                         "e.g. <simple>${body} contains 'Hello'</simple>");
      }
      DROMEDARY_TRY(inner, step(child));
      s.steps.push_back(std::move(inner));
    }
    if (!language) {
      return fileError(at(node), fmt::format("<{}> needs an expression", localName(node)),
                       "e.g. <simple>${body} contains 'Hello'</simple>");
    }
    s.predicates.emplace_back("onWhen", ExpressionSource{std::string(localName(language)),
                                                         language.child_value(), at(language),
                                                         {}});
    return {};
  }

  static std::string ignoredNote(const std::string& element, const std::string& id,
                                 const SourceRef& where) {
    return fmt::format("ignored <{}{}> at {} (not a route element)", element,
                       id.empty() ? std::string() : fmt::format(" id=\"{}\"", id),
                       positionText(where));
  }

  void ignore(const pugi::xml_node& node) {
    ignored_.push_back(ignoredNote(node.name(), node.attribute("id").value(), at(node)));
  }

  // <routeContext id="x"><route>...</route>...</routeContext>, in Spring's <beans>.
  Result<void> routeContext(const pugi::xml_node& node) {
    RouteContextSource context;
    pugi::xml_attribute id = node.attribute("id");
    if (!id) return fileError(at(node), "<routeContext> needs 'id'");
    context.id = Scalar{id.value(), at(node, id)};
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (localName(child) != "route") {
        return fileError(at(child), fmt::format("unknown element <{}> in <routeContext>",
                                                localName(child)),
                         suggestion(localName(child), {"route"}));
      }
      DROMEDARY_TRY(r, route(child));
      context.routes.push_back(std::move(r));
    }
    out_.routeContexts.push_back(std::move(context));
    return {};
  }

  // Spring's <beans>: its named <bean>s, its property-placeholders' locations; anything else
  // is noted as ignored.
  void springBeans(const pugi::xml_node& node) {
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element || localName(child) == "camelContext" ||
          localName(child) == "routeContext") {
        continue;
      }
      if (localName(child) == "bean" && child.attribute("id") && child.attribute("class")) {
        out_.beans.push_back(springXmlBean(child, places_));
        out_.beans.back().springNote =
            ignoredNote(child.name(), child.attribute("id").value(), at(child));
      } else if (localName(child) == "property-placeholder" && child.attribute("location")) {
        propertyLocations(child, places_, out_.propertyLocations);
      } else {
        ignore(child);
      }
    }
  }

  Result<void> camelBean(const pugi::xml_node& node) {
    DROMEDARY_TRY(bean, camelXmlBean(node, places_));
    out_.beans.push_back(std::move(bean));
    return {};
  }

  Result<RouteSource> route(const pugi::xml_node& node) {
    RouteSource r;
    r.where = at(node);
    for (pugi::xml_attribute a : node.attributes()) {
      if (std::string_view(a.name()).starts_with("xmlns")) continue;
      r.attributes.emplace_back(a.name(), Scalar{a.value(), at(node, a)});
    }
    bool has_from = false;
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = localName(child);
      if (name == "description") {
        r.attributes.emplace_back("description", Scalar{child.child_value(), at(child)});
      } else if (name == "from") {
        if (has_from) return fileError(at(child), "a route has one <from>");
        has_from = true;
        pugi::xml_attribute uri = child.attribute("uri");
        if (!uri) return fileError(at(child), "<from> needs 'uri'");
        r.from = Scalar{uri.value(), at(child, uri)};
        for (pugi::xml_attribute a : child.attributes()) {
          std::string_view an = a.name();
          if (an == "variableReceive") {
            r.fromVariableReceive = Scalar{a.value(), at(child, a)};
          } else if (an != "uri" && an != "id" && !an.starts_with("xmlns")) {
            return fileError(at(child, a), fmt::format("unknown attribute '{}' in from", an),
                             suggestion(an, {"uri", "id", "variableReceive"}));
          }
        }
      } else if (name == "onException" || name == "onCompletion") {
        DROMEDARY_TRY(clause, step(child));
        (name == "onException" ? r.onExceptions : r.onCompletions).push_back(std::move(clause));
      } else if (name == "intercept" || name == "interceptFrom" ||
                 name == "interceptSendToEndpoint") {
        DROMEDARY_TRY(clause, step(child));
        r.intercepts.push_back(std::move(clause));
      } else {
        if (!has_from) return fileError(at(child), "a route starts with <from>");
        DROMEDARY_TRY(s, step(child));
        r.steps.push_back(std::move(s));
      }
    }
    if (!has_from) return fileError(r.where, "route needs <from>");
    return r;
  }

  Result<StepSource> step(const pugi::xml_node& node) {
    StepSource s;
    s.kind = std::string(localName(node));
    s.where = at(node);
    for (pugi::xml_attribute a : node.attributes()) {
      if (std::string_view(a.name()).starts_with("xmlns")) continue;
      s.attributes.emplace_back(a.name(), Scalar{a.value(), at(node, a)});
    }
    for (pugi::xml_node child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      std::string_view name = localName(child);
      if (const eip::ClauseSchema* clause = eip::findClause(s.kind, name)) {
        DROMEDARY_TRY(p, step(child));  // a loadBalance policy, a resequence config
        p.kind = std::string(clause->key);
        s.policies.push_back(std::move(p));
      } else if (name == "exception" &&
                 (s.kind == "onException" || s.kind == "doCatch" || s.kind == "failover")) {
        s.exceptions.push_back(Scalar{child.child_value(), at(child)});
      } else if ((name == "onWhen" || name == "when") && isInterceptor(s.kind)) {
        DROMEDARY_TRY_VOID(interceptorWhen(child, s));
      } else if (name == "onWhen" || name == "handled" || name == "continued" ||
                 name == "retryWhile" || name == "correlationExpression" ||
                 name == "completionPredicate") {
        DROMEDARY_TRY_VOID(predicate(child, s));
      } else if (name == "redeliveryPolicy") {
        policy(child, s);
      } else if (s.kind == "circuitBreaker" && name == "onFallback") {
        DROMEDARY_TRY(f, step(child));
        s.fallback.push_back(std::move(f));
      } else if (name == "recordException" || name == "ignoreException") {
        // resilience4jConfiguration's exception types, one element each.
        s.attributes.emplace_back(std::string(name), Scalar{child.child_value(), at(child)});
      } else if (s.kind == "doTry" && name == "doCatch") {
        DROMEDARY_TRY(c, step(child));
        s.catches.push_back(std::move(c));
      } else if (s.kind == "doTry" && name == "doFinally") {
        DROMEDARY_TRY(f, step(child));
        s.finally.push_back(std::move(f));
      } else if (isLanguage(name) && !s.expression && s.steps.empty() && s.whens.empty()) {
        s.expression = ExpressionSource{std::string(name), child.child_value(), at(child), {}};
        // <tokenize token="\n" group="10"/>, <jsonpath suppressExceptions="true">: options as
        // attributes.
        if (name == "tokenize" || languageTakesOptions(name)) {
          for (pugi::xml_attribute a : child.attributes()) {
            s.expression->options.emplace_back(a.name(), Scalar{a.value(), at(child, a)});
          }
        }
      } else if (name == "expressionDefinition" || name == "language") {
        return fileError(at(child), fmt::format("<{}> is not supported", name),
                         "write the expression as <simple>, <constant>, <header> or "
                         "<exchangeProperty>");
      } else if (s.kind == "choice" && name == "when") {
        DROMEDARY_TRY(w, step(child));
        s.whens.push_back(std::move(w));
      } else if (s.kind == "choice" && name == "otherwise") {
        DROMEDARY_TRY(o, step(child));
        s.otherwise.push_back(std::move(o));
      } else if (name == "description") {
        s.attributes.emplace_back("description", Scalar{child.child_value(), at(child)});
      } else {
        DROMEDARY_TRY(nested, step(child));
        s.steps.push_back(std::move(nested));
      }
    }
    return s;
  }

  std::string& text_;  // parsed in place: changed by read()
  XmlPlaces places_;   // its lines, counted before
  FileSources& out_;
  std::vector<std::string>& ignored_;
};

}  // namespace

Result<void> readXmlRoutes(std::string& text, const std::string& file, FileSources& out,
                           std::vector<std::string>& ignored) {
  DROMEDARY_TRY_VOID(refuseNulBytes(text, file));
  return XmlReader(text, file, out, ignored).read();
}

}  // namespace dromedary::dsl

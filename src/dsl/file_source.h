// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a route file says, before it becomes a route: the shape both file front ends (YAML,
// XML) read into, with the position of everything, so that one translator (file_source.cc)
// validates steps, keys and expressions the same way for both and builds the same route
// model as the C++ DSL.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <dromedary/core/result.h>
#include <dromedary/dsl/route_loader.h>
#include <dromedary/engine/context.h>

#include "dsl/thin_vector.h"

namespace dromedary {
class Context;
}

namespace dromedary::dsl {

struct Scalar {
  std::string value;
  SourcePlace where;
};

struct ExpressionSource {
  std::string language;  ///< simple, constant, header, exchangeProperty, tokenize
  std::string text;
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> options;  ///< tokenize: token, regex, group ...
};

struct StepSource {
  std::string kind;  ///< as written: "setHeader", "to" ...
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< keys as written, in order
  std::vector<std::pair<std::string, Scalar>> parameters;  ///< endpoint parameters (to, toD)
  // What most steps leave empty is one pointer each (thin_vector.h): a big file's sources are
  // all held while it loads.
  ThinOptional<ExpressionSource> expression;
  std::vector<StepSource> steps;    ///< nested steps (filter, when, otherwise)
  ThinVector<StepSource> whens;     ///< choice
  ThinVector<StepSource> otherwise;  ///< choice: none or one
  // Error handling (onException, doCatch, onCompletion, error handlers):
  ThinVector<Scalar> exceptions;  ///< exception type names
  ThinVector<std::pair<std::string, ExpressionSource>> predicates;  ///< onWhen, handled ...
  ThinVector<std::pair<std::string, Scalar>> policy;  ///< redeliveryPolicy options
  ThinVector<StepSource> catches;   ///< doTry's doCatch clauses
  ThinVector<StepSource> finally;   ///< doTry's doFinally: none or one
  ThinVector<StepSource> fallback;  ///< circuitBreaker's onFallback: none or one
  /// Nested option blocks: loadBalance's roundRobin, failover ...; resequence's batchConfig or
  /// streamConfig (none or one).
  ThinVector<StepSource> policies;
  /// A process step's processor made by the loader itself (contract-first REST's mock answers
  /// and checks), in place of a `ref` to one bound in the context.
  std::shared_ptr<Processor> processor;
};

struct RouteSource {
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< id, description, autoStartup
  Scalar from;                                             ///< the uri
  std::vector<std::pair<std::string, Scalar>> parameters;  ///< of the from endpoint
  std::optional<Scalar> fromVariableReceive;               ///< Camel 4's from variableReceive
  std::vector<StepSource> steps;
  std::vector<StepSource> onExceptions;   ///< route-scoped (XML)
  std::vector<StepSource> onCompletions;  ///< route-scoped (XML)
  std::vector<StepSource> intercepts;     ///< route-scoped (XML): intercept, interceptFrom ...
  /// Set on a route made from a Kamelet (kamelet_expansion.cc), saying which and where it is
  /// used ("Kamelet 'log-sink' used at routes.yaml:5:9"), for errors. Such a route has no error
  /// handler and none of the load's routeConfigurations, so a failure goes back to the route
  /// that uses it, as Camel's Kamelets do by default (noErrorHandler).
  std::string kameletUse;
};

/// A routeConfiguration (or a file's top-level errorHandler): without an id it applies to
/// every route loaded with it; with one, to the routes naming it in routeConfigurationId.
struct RouteConfigurationSource {
  SourcePlace where;
  std::optional<Scalar> id;
  std::vector<StepSource> errorHandler;  ///< none or one: its kind is the handler's name
  std::vector<StepSource> onExceptions;
  std::vector<StepSource> onCompletions;
  /// intercept, interceptFrom and interceptSendToEndpoint clauses (kind says which).
  std::vector<StepSource> intercepts;

  /// Where a clause of this kind goes (onException, onCompletion or an interceptor), or null
  /// for another kind.
  std::vector<StepSource>* clausesOf(std::string_view kind) {
    if (kind == "onException") return &onExceptions;
    if (kind == "onCompletion") return &onCompletions;
    if (kind == "intercept" || kind == "interceptFrom" || kind == "interceptSendToEndpoint") {
      return &intercepts;
    }
    return nullptr;
  }
};

/// A `beans:` entry of a YAML file: a name a route refers to (process: {ref: name}), or a
/// bean a component's factory makes (Context::addBeanFactory).
struct BeanSource {
  Scalar name;
  std::string type;  ///< the Java class it names in Camel, shown in errors
  /// `properties:`, nested maps flattened with dots (`a: {b: 1}` is `a.b`), as written.
  std::vector<std::pair<std::string, Scalar>> properties;
  /// A Spring XML `<bean>`: made when a component's factory knows its class, else skipped with
  /// this note (what the loader reports as ignored), as before factories existed.
  std::string springNote;
};

/// A routeTemplate's parameter (YAML `parameters:` entry, XML `<templateParameter>`).
struct TemplateParameterSource {
  Scalar name;
  std::optional<Scalar> defaultValue;
  std::optional<Scalar> required;  ///< "true" / "false" as written
  std::string description;
};

/// A routeTemplate: its route uses the parameters as {{name}} placeholders.
struct RouteTemplateSource {
  SourcePlace where;
  Scalar id;
  std::vector<TemplateParameterSource> parameters;
  RouteSource route;
};

/// A templatedRoute: a route from a template (of the same load or already in the context).
struct TemplatedRouteSource {
  SourcePlace where;
  Scalar templateRef;
  std::optional<Scalar> routeId;
  std::vector<std::pair<Scalar, Scalar>> parameters;  ///< name, value
};

/// A property of a Kamelet (spec.definition.properties), as its JSON schema describes it.
struct KameletPropertySource {
  Scalar name;
  std::string type = "string";  ///< string, integer, number, boolean, binary ...
  std::optional<Scalar> defaultValue;
  std::string title;
  std::string description;
  std::string format;  ///< e.g. password: the value is hidden in listings
  std::vector<std::string> allowed;  ///< enum
  std::string example;
  bool required = false;  ///< listed in spec.definition.required
};

/// A `kind: Kamelet` resource: a route template with a typed, documented parameter schema.
struct KameletSource {
  SourcePlace where;
  Scalar name;         ///< metadata.name: the name it is used by (kamelet:NAME)
  std::string type;    ///< the kamelet.type label: source, action or sink (or empty)
  std::string title;
  std::string description;
  std::vector<KameletPropertySource> properties;
  std::vector<Scalar> dependencies;  ///< spec.dependencies, as written
  RouteSource route;                 ///< spec.template
  std::vector<BeanSource> beans;     ///< spec.template.beans
};

/// One verb of a rest (get, post ...): YAML's `get: [{path: ..., to: ...}]`, XML's `<get>`.
struct RestVerbSource {
  std::string method;  ///< the key as written: get, post, put, patch, delete, head
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< path, id, consumes ...
  std::vector<StepSource> to;     ///< none or one: the verb's to (or toD)
  std::vector<SourceRef> params;  ///< param entries (documentation), where they are
  std::optional<Scalar> paramDefault;  ///< the first param's defaultValue, if any
};

/// A rest's openApi: its services made from an OpenAPI document (Camel's contract-first REST).
struct RestOpenApiSource {
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< specification, missingOperation ...
};

/// A rest: a path and its verbs, or an openApi.
struct RestSource {
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< path, consumes, produces ...
  std::vector<RestVerbSource> verbs;
  std::optional<RestOpenApiSource> openApi;
};

/// A restConfiguration: where the rest services are served.
struct RestConfigurationSource {
  SourcePlace where;
  std::vector<std::pair<std::string, Scalar>> attributes;  ///< component, port, contextPath ...
};

/// Replaces each {{name}} / {{name:default}} / {{?name}} whose name is in `values` everywhere
/// in `route` (other placeholders stay, for the context's properties).
void substituteTemplateParameters(RouteSource& route,
                                  const std::map<std::string, std::string, std::less<>>& values);
/// The same in one text (a bean's property).
void substituteTemplateParameters(std::string& text,
                                  const std::map<std::string, std::string, std::less<>>& values);

/// Makes a bean a component's factory knows (Context::addBeanFactory): its name and properties
/// resolved, an error placed at the bean's name.
/// The factory that makes a route file's bean of `type`: a component's (Context::beanFactory),
/// else the engine's own for Camel's aggregation strategy classes; null when none can.
const Context::BeanFactory* beanFactoryFor(const Context& context, std::string_view type);
Result<void> makeBean(Context& context, const Context::BeanFactory& factory,
                      const BeanSource& bean);

/// The names of the placeholders anywhere in `route` ("name" of {{name:default}}).
std::set<std::string, std::less<>> placeholderNames(const RouteSource& route);

/// How deep a route file's elements (XML) or collections (YAML) may nest: real routes stay
/// far below it, and it keeps the readers' and the translator's recursion well inside the
/// stack (a 4,000-deep file crashed them).
inline constexpr size_t kMaxFileDepth = 256;

/// The value of `key` among `attributes`, or nullptr.
const Scalar* attribute(const std::vector<std::pair<std::string, Scalar>>& attributes,
                        std::string_view key);

/// `s`'s value with the context's {{placeholders}} resolved; an error points at `s`.
Result<std::string> resolveScalar(Context& context, const Scalar& s);

/// "routes.yaml:7:9" (or the file alone when the line is not known).
std::string positionText(const SourceRef& where);

/// Fails when the step `kind`'s schema does not know `key` (besides id and description),
/// naming the key meant; a kind without a schema passes.
Result<void> refuseUnknownKey(std::string_view kind, std::string_view key, const SourceRef& where);

/// An InvalidRoute error reading "<what> at <position>[; <hint>]", positioned at `where`.
Error fileError(const SourceRef& where, std::string_view what, std::string_view hint = {});

/// "did you mean 'x'?" for the closest of `candidates`, else "expected one of: a, b".
std::string suggestion(std::string_view word, const std::vector<std::string_view>& candidates);

/// The languages an expression may be written in, in route files.
const std::vector<std::string_view>& expressionLanguages();

/// Whether `language` takes options of its own (jsonpath's suppressExceptions, jq's
/// resultType ...): the readers keep them in ExpressionSource::options for the language to
/// check when the route starts.
bool languageTakesOptions(std::string_view language);
/// Camel's languages that run on the JVM (groovy, javascript, mvel, ...): read as expressions
/// so that the error names the language and says why it cannot run here.
bool isJvmLanguage(std::string_view language);

/// Everything read from a set of route files.
/// A Spring `<routeContext id>` (in `<beans>`): routes a `<camelContext>` takes in with
/// `<routeContextRef ref>`, maybe from another file of the load.
struct RouteContextSource {
  Scalar id;
  std::vector<RouteSource> routes;
};

struct FileSources {
  std::vector<RouteSource> routes;
  std::vector<RouteContextSource> routeContexts;
  std::vector<Scalar> routeContextRefs;  ///< each `<routeContextRef ref>`, where it is
  /// Each location of a Spring `<context:property-placeholder location>` (one per entry of
  /// its comma-separated list), where it is written: loaded before the beans are made.
  std::vector<Scalar> propertyLocations;
  std::vector<RouteConfigurationSource> configurations;
  std::vector<BeanSource> beans;
  std::vector<RouteTemplateSource> templates;
  std::vector<TemplatedRouteSource> templatedRoutes;
  std::vector<RestSource> rests;
  std::vector<RestConfigurationSource> restConfigurations;
  std::vector<KameletSource> kamelets;  ///< the load's own Kamelets (kind: Kamelet files)
};

/// Moves everything read in `from` to the end of `to`'s lists.
void appendSources(FileSources& to, FileSources&& from);

/// The routes of each `<routeContext>` a `<routeContextRef>` names, moved into the load's
/// routes, once all its files are read; a ref to no routeContext fails at the ref, listing
/// those there are. A routeContext no ref names adds no route, and a note says so.
Result<void> includeRouteContexts(FileSources& sources, std::vector<std::string>& notes);

/// Loads the properties files of the Spring property-placeholders: `classpath:NAME` (or NAME)
/// is looked for beside the file that names it, `file:PATH` is PATH. One not found is noted and
/// skipped (here the classpath is the route files' folders, not a Java project's).
Result<void> loadPropertyLocations(Context& context, const FileSources& sources,
                                   std::vector<std::string>& notes);

/// The load's rest verbs as routes from platform-http (rest_sources.cc), after checking every
/// key of the rests and the restConfiguration, and giving the latter's host and port to the
/// HTTP server.
Result<std::vector<RouteSource>> restRoutes(Context& context, const FileSources& sources);

/// Validates the routes and adds them to `context` (placeholders resolved, steps built with
/// their positions), all or nothing.
/// Declared beans must be bound in the context (Context::bindProcessor) under their names:
/// Java classes cannot be created here.
/// Rest verbs become routes and Kamelets are instantiated (kamelet_expansion.h) first, which
/// changes `sources`; its routes are let go of as they are translated (`sources.routes` is
/// empty after).
/// `options` (route_loader.h) chooses which routes are added; `loaded` receives every route
/// read, with its key, fingerprint and (when added) id.
Result<void> addRouteSources(Context& context, FileSources& sources, const LoadOptions& options,
                             std::vector<LoadedRoute>& loaded);

}  // namespace dromedary::dsl

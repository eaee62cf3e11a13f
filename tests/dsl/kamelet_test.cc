// SPDX-License-Identifier: Apache-2.0
// Kamelets and Pipes in route files: Kamelet resources, kamelet: uses made into routes,
// property values and their checks, where Kamelets are found, and Pipes with their error
// handlers.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include <dromedary/dsl/kamelets.h>

#include "alloc_counter.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

// A Kamelet of this test's own: a required, a defaulted and an optional property.
constexpr const char* kGreetAction = R"(apiVersion: camel.apache.org/v1
kind: Kamelet
metadata:
  name: greet-action
  labels:
    camel.apache.org/kamelet.type: action
spec:
  definition:
    title: Greet
    required: [name]
    properties:
      name: {title: Name, type: string}
      greeting: {title: Greeting, type: string, default: Hello}
      suffix: {title: Suffix, type: string}
      times: {title: Times, type: integer, default: 1}
  template:
    from:
      uri: kamelet:source
      steps:
        - setBody:
            simple: "{{greeting}} {{name}}{{?suffix}}"
        - setHeader:
            name: times
            constant: "{{times}}"
)";

class KameletTest : public RouteFileTest {
 protected:
  KameletTest() {
    dir_ = fs::temp_directory_path() / fmt::format("dromedary-kamelet-test-{}", ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "kamelets");
    h.context.properties().set("dromedary.kamelets", (dir_ / "kamelets").string());
    kamelet("greet-action", kGreetAction);
  }
  ~KameletTest() override { fs::remove_all(dir_); }

  void kamelet(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / "kamelets" / (name + ".kamelet.yaml")) << text;
  }
  std::string file(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::string loadError(const std::vector<std::string>& paths) {
    auto loaded = loadRoutes(h.context, paths);
    if (!loaded) return loaded.error().toString();
    auto started = h.context.start();
    return started ? std::string() : started.error().toString();
  }

  fs::path dir_;
};

TEST_F(KameletTest, RequiredDefaultedAndOptionalPropertiesAreFilledIn) {
  loadYaml(R"(
- from:
    uri: direct:a
    steps:
      - to: "kamelet:greet-action?name=Ann"
      - to: mock:out
- from:
    uri: direct:b
    steps:
      - to:
          uri: kamelet:greet-action
          parameters: {name: Bob, greeting: Hi, suffix: "!", times: 3}
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:b", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"Hello Ann", "Hi Bob!"}));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges()[1]->message().getHeader("times")->as<std::string>(), "3");
}

TEST_F(KameletTest, XmlRoutesUseKameletsToo) {
  loadXml(R"(<routes xmlns="http://camel.apache.org/schema/spring">
  <route>
    <from uri="direct:a"/>
    <to uri="kamelet:greet-action?name=Xml&amp;greeting=Hi"/>
    <to uri="mock:out"/>
  </route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"Hi Xml"}));
}

TEST_F(KameletTest, EachUseIsARouteOfItsOwnWithItsOwnStatistics) {
  loadYaml(R"(
- from:
    uri: direct:a
    steps:
      - to: "kamelet:greet-action?name=Ann"
      - to: "kamelet:greet-action/second?name=Bob"
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"Hello Bob", "Hello Bob"}));
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "greet-action-1"), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "second"), ids.end());
  EXPECT_EQ(h.context.routeStatistics("greet-action-1")->exchangesTotal, 2u);
  EXPECT_EQ(h.context.routeStatistics("second")->exchangesTotal, 2u);
}

TEST_F(KameletTest, AMissingRequiredPropertyNamesTheKameletThePropertyAndTheUse) {
  std::string error = yamlError(R"(
- from:
    uri: direct:a
    steps:
      - to: kamelet:greet-action
)");
  EXPECT_NE(error.find("Kamelet 'greet-action' needs the property 'name' at routes.yaml:5:13"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, APropertyTheKameletDoesNotHaveIsRefusedWithASuggestion) {
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: 'kamelet:greet-action?name=x&greting=Hi'}]}");
  EXPECT_NE(error.find("Kamelet 'greet-action' has no property 'greting'"), std::string::npos) << error;
  EXPECT_NE(error.find("did you mean 'greeting'?"), std::string::npos) << error;
}

TEST_F(KameletTest, AValueItsSchemaRefusesIsAnError) {
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: 'kamelet:greet-action?name=x&times=many'}]}");
  EXPECT_NE(error.find("property 'times' must be an integer, not 'many'"), std::string::npos) << error;
  error = yamlError("- from: {uri: direct:a, steps: [{to: 'kamelet:log-sink?level=LOUD'}]}");
  EXPECT_NE(error.find("property 'level' must be one of TRACE, DEBUG, INFO, WARN, ERROR, OFF"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, PropertiesComeFromTheContextWhenTheUseLeavesThemOut) {
  h.context.properties().set("camel.kamelet.greet-action.name", "Everyone");
  h.context.properties().set("camel.kamelet.greet-action.loud.greeting", "HELLO");
  loadYaml(R"(
- from:
    uri: direct:a
    steps:
      - to: kamelet:greet-action
      - to: kamelet:greet-action/loud
      - to: mock:out
)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"HELLO Everyone"}));
}

TEST_F(KameletTest, AnUnknownKameletIsRefusedWithTheClosestName) {
  std::string error = yamlError("- from: {uri: 'kamelet:timer-sorce?message=x', steps: [{to: mock:out}]}");
  EXPECT_NE(error.find("unknown Kamelet 'timer-sorce'"), std::string::npos) << error;
  EXPECT_NE(error.find("did you mean 'timer-source'?"), std::string::npos) << error;
}

TEST_F(KameletTest, ASourceCannotBeCalledAndAnActionCannotStartARoute) {
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: 'kamelet:timer-source?message=x'}]}");
  EXPECT_NE(error.find("Kamelet 'timer-source' is a source"), std::string::npos) << error;
  error = yamlError("- from: {uri: 'kamelet:greet-action?name=x', steps: [{to: mock:out}]}");
  EXPECT_NE(error.find("Kamelet 'greet-action' is an action"), std::string::npos) << error;
}

TEST_F(KameletTest, AKameletThatUsesItselfIsRefused) {
  kamelet("loop-action", R"(kind: Kamelet
metadata: {name: loop-action}
spec:
  template:
    from:
      uri: kamelet:source
      steps: [{to: kamelet:loop-action}]
)");
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: kamelet:loop-action}]}");
  EXPECT_NE(error.find("Kamelet 'loop-action' uses itself (loop-action -> loop-action)"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, ATyposStepInAKameletPointsIntoTheKameletFile) {
  kamelet("typo-action", R"(kind: Kamelet
metadata: {name: typo-action}
spec:
  template:
    from:
      uri: kamelet:source
      steps:
        - setBdy: {constant: x}
)");
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: kamelet:typo-action}]}");
  EXPECT_NE(error.find("unknown step 'setBdy' at " + (dir_ / "kamelets/typo-action.kamelet.yaml").string() + ":8:11"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("in the route of Kamelet 'typo-action' used at routes.yaml:1:"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, AFolderKameletNamedOtherwiseThanItsFileIsRefused) {
  kamelet("odd-action", "kind: Kamelet\nmetadata: {name: even-action}\nspec: {template: {from: {uri: kamelet:source}}}\n");
  std::string error = yamlError("- from: {uri: direct:a, steps: [{to: kamelet:odd-action}]}");
  EXPECT_NE(error.find("the Kamelet in odd-action.kamelet.yaml is named 'even-action'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("name it 'odd-action', as its file"), std::string::npos) << error;
}

TEST_F(KameletTest, WhatCannotBeHonouredIsRefusedAtTheUse) {
  kamelet("java-action", R"(kind: Kamelet
metadata: {name: java-action}
spec:
  dependencies: ["mvn:com.acme:acme-kamelets:1.0"]
  template: {from: {uri: kamelet:source}}
)");
  kamelet("bean-action", R"(kind: Kamelet
metadata: {name: bean-action}
spec:
  template:
    beans: [{name: upper, type: "#class:com.acme.Upper"}]
    from: {uri: kamelet:source, steps: [{process: {ref: upper}}]}
)");
  std::string java = yamlError("- from: {uri: direct:a, steps: [{to: kamelet:java-action}]}");
  EXPECT_NE(java.find("Kamelet 'java-action' depends on 'mvn:com.acme:acme-kamelets:1.0', a Java "
                      "library that cannot be loaded here at routes.yaml:1:"),
            std::string::npos)
      << java;
  std::string bean = yamlError("- from: {uri: direct:b, steps: [{to: kamelet:bean-action}]}");
  EXPECT_NE(bean.find("Kamelet 'bean-action' needs the bean 'upper'"), std::string::npos) << bean;
}

TEST_F(KameletTest, ToDAndALocationInTheUriAreRefused) {
  std::string tod = yamlError("- from: {uri: direct:a, steps: [{toD: 'kamelet:greet-action?name=${body}'}]}");
  EXPECT_NE(tod.find("a Kamelet cannot be called through toD"), std::string::npos) << tod;
  std::string location = yamlError(
      "- from: {uri: direct:b, steps: [{to: 'kamelet:greet-action?name=x&location=file:/k'}]}");
  EXPECT_NE(location.find("a Kamelet's location in its URI is not supported"), std::string::npos)
      << location;
}

TEST_F(KameletTest, APipesUnknownErrorHandlerIsRefusedWithTheClosestName) {
  std::string pipe = file("pipe.yaml", R"(kind: Pipe
metadata: {name: p}
spec:
  source: {uri: direct:a}
  sink: {uri: mock:x}
  errorHandler: {sinc: {endpoint: {uri: mock:dead}}}
)");
  std::string error = loadError({pipe});
  EXPECT_NE(error.find("unknown Pipe error handler 'sinc' at " + pipe + ":6:18; did you mean 'sink'?"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, AKameletInAFolderShadowsAShippedOne) {
  kamelet("log-sink", R"(kind: Kamelet
metadata: {name: log-sink, labels: {camel.apache.org/kamelet.type: sink}}
spec:
  definition: {properties: {tag: {type: string, default: mine}}}
  template:
    from:
      uri: kamelet:source
      steps: [{setBody: {simple: "{{tag}} ${body}"}}, {to: mock:shadow}]
)");
  loadYaml("- from: {uri: direct:a, steps: [{to: kamelet:log-sink}]}");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:shadow"), (std::vector<std::string>{"mine x"}));
  auto reference = kameletReference(h.context, "log-sink");
  ASSERT_TRUE(reference);
  EXPECT_NE(reference->find("| tag | string | mine |"), std::string::npos) << *reference;
}

TEST_F(KameletTest, AKameletAmongTheRouteFilesIsUsedFirst) {
  std::string own = file("local-action.kamelet.yaml", R"(kind: Kamelet
metadata: {name: greet-action}
spec:
  template:
    from: {uri: kamelet:source, steps: [{setBody: {constant: local}}]}
)");
  std::string routes = file("routes.yaml", "- from: {uri: direct:a, steps: [{to: kamelet:greet-action}, {to: mock:out}]}");
  EXPECT_EQ(loadError({own, routes}), "");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:out"), (std::vector<std::string>{"local"}));
}

TEST_F(KameletTest, AFailureInAnActionGoesToTheCallersErrorHandling) {
  kamelet("fail-action", R"(kind: Kamelet
metadata: {name: fail-action}
spec:
  template:
    from:
      uri: kamelet:source
      steps: [{throwException: {exceptionType: java.lang.IllegalStateException, message: boom}}]
)");
  loadYaml(R"(
- route:
    from:
      uri: direct:a
      steps:
        - doTry:
            steps: [{to: kamelet:fail-action}]
            doCatch:
              - exception: [java.lang.IllegalStateException]
                steps: [{setBody: {simple: "caught ${exception.message}"}}, {to: mock:caught}]
)");
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(bodies("mock:caught"), (std::vector<std::string>{"caught boom"}));
}

TEST_F(KameletTest, APipeRunsFromItsSourceThroughTwoActionsToItsSink) {
  std::string pipe = file("pipe.yaml", R"(apiVersion: camel.apache.org/v1
kind: Pipe
metadata:
  name: greetings
spec:
  source:
    uri: direct:start
  steps:
    - ref: {kind: Kamelet, apiVersion: camel.apache.org/v1, name: greet-action}
      properties: {name: Pipe}
    - ref: {kind: Kamelet, name: insert-header-action}
      properties: {name: seen, value: "yes"}
  sink:
    uri: mock:end
)");
  EXPECT_EQ(loadError({pipe}), "");
  ASSERT_TRUE(h.producer.sendBody("direct:start", "x"));
  EXPECT_EQ(bodies("mock:end"), (std::vector<std::string>{"Hello Pipe"}));
  EXPECT_EQ(h.mock("mock:end").receivedExchanges()[0]->message().getHeader("seen")->as<std::string>(), "yes");
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "greetings"), ids.end());
}

TEST_F(KameletTest, APipesSinkErrorHandlerGetsTheFailedMessage) {
  kamelet("dead-sink", R"(kind: Kamelet
metadata: {name: dead-sink, labels: {camel.apache.org/kamelet.type: sink}}
spec:
  definition: {properties: {tag: {type: string}}}
  template:
    from: {uri: kamelet:source, steps: [{setHeader: {name: tag, constant: "{{tag}}"}}, {to: mock:dead}]}
)");
  std::string pipe = file("pipe.yaml", R"(kind: Pipe
metadata: {name: failing}
spec:
  source: {uri: direct:start}
  sink: {uri: "direct:nowhere?block=false"}
  errorHandler:
    sink:
      endpoint:
        ref: {kind: Kamelet, name: dead-sink}
        properties: {tag: "a&b"}
      parameters: {maximumRedeliveries: 1, redeliveryDelay: 0}
)");
  EXPECT_EQ(loadError({pipe}), "");
  (void)h.producer.sendBody("direct:start", "lost?");
  EXPECT_EQ(bodies("mock:dead"), (std::vector<std::string>{"lost?"}));
  EXPECT_EQ(h.mock("mock:dead").receivedExchanges()[0]->message().getHeader("tag")->as<std::string>(), "a&b");
}

TEST_F(KameletTest, APipeRefersOnlyToWhatCanBeReached) {
  std::string pipe = file("pipe.yaml", R"(kind: Pipe
metadata: {name: p}
spec:
  source: {ref: {kind: Broker, apiVersion: eventing.knative.dev/v1, name: default}}
  sink: {uri: mock:x}
)");
  std::string error = loadError({pipe});
  EXPECT_NE(error.find("a ref to a Broker (a Kubernetes resource) cannot be reached here at"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, AKameletFileWithAnUnknownKeyIsRefusedWhereItIs) {
  std::string bad = file("bad.kamelet.yaml", R"(kind: Kamelet
metadata: {name: bad}
spec:
  definition: {propertes: {}}
  template: {from: {uri: kamelet:source}}
)");
  std::string error = loadError({bad});
  EXPECT_NE(error.find("unknown key 'propertes' in a Kamelet's definition at " + bad + ":4:16"),
            std::string::npos)
      << error;
}

TEST_F(KameletTest, TheShippedTimerSourceFeedsTheRouteThatUsesIt) {
  loadYaml(R"(
- from:
    uri: "kamelet:timer-source?message=tick&period=10"
    steps:
      - to: mock:ticks
)");
  h.mock("mock:ticks").expectedMinimumMessageCount(2);
  ASSERT_TRUE(h.mock("mock:ticks").assertIsSatisfied(std::chrono::seconds(10)));
  EXPECT_EQ(bodies("mock:ticks")[0], "tick");
  EXPECT_EQ(h.mock("mock:ticks").receivedExchanges()[0]->message().getHeader("Content-Type")->as<std::string>(),
            "text/plain");
}

// The Kamelet layer costs nothing per message: a use is a direct call into the instance.
TEST_F(KameletTest, ARouteThroughKameletsAllocatesNothingOnceWarm) {
  kamelet("tag-action", R"(kind: Kamelet
metadata: {name: tag-action}
spec:
  definition: {properties: {tag: {type: string, default: t}}}
  template:
    from: {uri: kamelet:source, steps: [{setHeader: {name: tag, constant: "{{tag}}"}}]}
)");
  loadYaml(R"(
- from:
    uri: direct:a
    steps:
      - to: kamelet:tag-action
      - to: "kamelet:tag-action?tag=u"
)");
  auto send = [&] { ASSERT_TRUE(h.producer.sendBody("direct:a", "x")); };
  for (int i = 0; i < 100; ++i) send();
  AllocationScope scope;
  for (int i = 0; i < 1000; ++i) send();
  EXPECT_EQ(scope.allocations(), 0u);
}

TEST_F(KameletTest, TheShippedCronSourceFiresOnItsSchedule) {
  loadYaml(R"(
- from:
    uri: kamelet:cron-source
    parameters: {schedule: "* * * * * ?", message: cron}
    steps:
      - to: mock:cron
)");
  h.mock("mock:cron").expectedMinimumMessageCount(1);
  ASSERT_TRUE(h.mock("mock:cron").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_EQ(bodies("mock:cron")[0], "cron");
}

TEST_F(KameletTest, ThePredicateFilterAndJsonKameletsWorkOnJson) {
  loadYaml(R"(
- from:
    uri: direct:people
    steps:
      - to: "kamelet:predicate-filter-action?expression=@.name =~ /.*John/"
      - to: kamelet:json-deserialize-action
      - setHeader: {name: age, simple: "${body[age]}"}
      - to: kamelet:json-serialize-action
      - to: mock:kept
)");
  ASSERT_TRUE(h.producer.sendBody("direct:people", R"({"name": "Big John", "age": 40})"));
  ASSERT_TRUE(h.producer.sendBody("direct:people", R"({"name": "Ann", "age": 30})"));
  ASSERT_EQ(h.mock("mock:kept").receivedCount(), 1u);
  const auto& ex = *h.mock("mock:kept").receivedExchanges()[0];
  EXPECT_EQ(ex.message().getHeader("age")->as<std::string>(), "40");
  EXPECT_EQ(ex.message().body().as<std::string>(), R"({"name":"Big John","age":40})");
}

// The demo sources call public services (not reachable from the tests): their routes are
// checked as made, each a timer calling its service's https endpoint.
TEST_F(KameletTest, TheShippedDemoSourcesCallTheirServices) {
  loadYaml(R"(
- from: {uri: "kamelet:beer-source?period=60000", steps: [{to: mock:beers}]}
- from: {uri: "kamelet:chuck-norris-source", steps: [{to: mock:jokes}]}
)");
  auto uris = h.context.endpointUris();
  auto has = [&](std::string_view prefix) {
    return std::any_of(uris.begin(), uris.end(),
                       [&](const std::string& u) { return u.starts_with(prefix); });
  };
  EXPECT_TRUE(has("https://random-data-api.com/api/beer/random_beer"));
  EXPECT_TRUE(has("https://api.chucknorris.io/jokes/random"));
  EXPECT_TRUE(has("timer://beer-source-1?period=60000"));
  EXPECT_TRUE(has("timer://chuck-norris-source-1?period=10000"));
  h.context.stop();
}

// Every file of kamelets/ is shipped, listed and readable (a YAML slip in one, such as an
// unquoted ": " in a description, fails here rather than at a user's route).
TEST_F(KameletTest, EveryShippedKameletIsListedAndReadable) {
  auto list = kameletList(h.context);
  ASSERT_TRUE(list) << list.error().toString();
  size_t shipped = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(DROMEDARY_SOURCE_DIR) / "kamelets")) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".kamelet.yaml")) continue;
    name.resize(name.size() - std::string_view(".kamelet.yaml").size());
    ++shipped;
    EXPECT_NE(list->find(fmt::format("| {} |", name)), std::string::npos) << name;
    auto reference = kameletReference(h.context, name);
    EXPECT_TRUE(reference) << name << ": " << reference.error().toString();
  }
  EXPECT_GE(shipped, 33u);
  EXPECT_NE(list->find("| greet-action |"), std::string::npos);  // the test's own
}

}  // namespace
}  // namespace dromedary::testing

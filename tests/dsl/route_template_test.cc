// SPDX-License-Identifier: Apache-2.0
// Route templates: routeTemplate / templatedRoute in YAML and XML, templates in C++, routes
// added from templates by code, and the errors of each.
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class RouteTemplateTest : public RouteFileTest {};

constexpr const char* kGreeterYaml = R"(
- routeTemplate:
    id: greeter
    parameters:
      - name: name
      - name: greeting
        defaultValue: Hello
    from:
      uri: "direct:{{name}}"
      steps:
        - setBody:
            simple: "{{greeting}} {{name}}: ${body}"
        - to: mock:greetings
)";

TEST_F(RouteTemplateTest, YamlTemplatedRoutesTakeTheirParametersAndDefaults) {
  std::string yaml = std::string(kGreeterYaml) + R"(
- templatedRoute:
    routeTemplateRef: greeter
    routeId: hello-one
    parameters:
      - name: name
        value: one
- templatedRoute:
    routeTemplateRef: greeter
    parameters:
      - {name: name, value: two}
      - {name: greeting, value: Bonjour}
)";
  LoadReport report = loadYaml(yaml.c_str());
  EXPECT_EQ(report.routes, 2u);
  ASSERT_TRUE(h.producer.sendBody("direct:one", "a"));
  ASSERT_TRUE(h.producer.sendBody("direct:two", "b"));
  EXPECT_EQ(bodies("mock:greetings"), (std::vector<std::string>{"Hello one: a", "Bonjour two: b"}));
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "hello-one"), ids.end());
  EXPECT_EQ(h.context.routeTemplateIds(), (std::vector<std::string>{"greeter"}));
}

TEST_F(RouteTemplateTest, XmlRouteTemplatesAndTemplatedRoutes) {
  loadXml(R"(<camelContext xmlns="http://camel.apache.org/schema/spring">
  <routeTemplate id="tagger">
    <templateParameter name="queue"/>
    <templateParameter name="tag" defaultValue="none"/>
    <route>
      <from uri="direct:{{queue}}"/>
      <setHeader name="tag"><constant>{{tag}}</constant></setHeader>
      <to uri="mock:tagged"/>
    </route>
  </routeTemplate>
  <templatedRoute routeTemplateRef="tagger" routeId="orders">
    <parameter name="queue" value="orders"/>
    <parameter name="tag" value="order"/>
  </templatedRoute>
  <templatedRoute routeTemplateRef="tagger">
    <parameter name="queue" value="other"/>
  </templatedRoute>
</camelContext>)");
  ASSERT_TRUE(h.producer.sendBody("direct:orders", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:other", "y"));
  auto got = h.mock("mock:tagged").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(*got[0]->message().getHeader("tag"), Value("order"));
  EXPECT_EQ(*got[1]->message().getHeader("tag"), Value("none"));
}

TEST_F(RouteTemplateTest, XmlRouteTemplatesFileThenTemplatedRoutesFile) {
  auto templates = loadXmlRoutes(h.context, R"(<routeTemplates xmlns="http://camel.apache.org/schema/spring">
  <routeTemplate id="forward">
    <templateParameter name="to"/>
    <route><from uri="direct:forward-{{to}}"/><to uri="mock:{{to}}"/></route>
  </routeTemplate>
</routeTemplates>)", "templates.xml");
  ASSERT_TRUE(templates) << templates.error().toString();
  loadXml(R"(<camel>
  <templatedRoute routeTemplateRef="forward"><parameter name="to" value="a"/></templatedRoute>
</camel>)");
  ASSERT_TRUE(h.producer.sendBody("direct:forward-a", "x"));
  EXPECT_EQ(bodies("mock:a"), (std::vector<std::string>{"x"}));
}

TEST_F(RouteTemplateTest, AMissingParameterIsReportedAtTheTemplatedRoute) {
  std::string yaml = std::string(kGreeterYaml) + R"(
- templatedRoute:
    routeTemplateRef: greeter
    parameters:
      - {name: greeting, value: Hi}
)";
  std::string e = yamlError(yaml.c_str());
  EXPECT_NE(e.find("route template 'greeter' needs the parameter name at routes.yaml:15:3"),
            std::string::npos)
      << e;
}

TEST_F(RouteTemplateTest, AnUnknownTemplateSuggestsTheClosest) {
  std::string yaml = std::string(kGreeterYaml) + R"(
- templatedRoute:
    routeTemplateRef: greter
)";
  std::string e = yamlError(yaml.c_str());
  EXPECT_NE(e.find("unknown route template 'greter' at routes.yaml:16:23; did you mean 'greeter'?"),
            std::string::npos)
      << e;
}

TEST_F(RouteTemplateTest, AMistakeInTheTemplateIsReportedInTheTemplate) {
  std::string e = yamlError(R"(
- routeTemplate:
    id: broken
    from:
      uri: direct:broken
      steps:
        - setheader: {name: a, constant: b}
- templatedRoute:
    routeTemplateRef: broken
)");
  EXPECT_NE(e.find("unknown step 'setheader' at routes.yaml:7:11; did you mean 'setHeader'?"),
            std::string::npos)
      << e;
}

// A typo in a template fails the load even when nothing instantiates the template yet.
TEST_F(RouteTemplateTest, AMistakeInAnUnusedTemplateFailsTheLoad) {
  std::string e = yamlError(R"(
- routeTemplate:
    id: unused
    parameters:
      - name: who
    from:
      uri: direct:{{who}}
      steps:
        - setBodyy: {simple: "hi {{who}}"}
)");
  EXPECT_EQ(e, "unknown step 'setBodyy' at routes.yaml:9:11; did you mean 'setBody'? (in route "
               "template 'unused')");
  e = xmlError(R"(<camelContext xmlns="http://camel.apache.org/schema/spring">
  <routeTemplate id="x"><templateParameter name="to"/>
    <route><from uri="direct:x"/><log mesage="m"/><to uri="{{to}}"/></route>
  </routeTemplate></camelContext>)");
  EXPECT_NE(e.find("unknown key 'mesage' in log"), std::string::npos) << e;
}

// What depends on a parameter's value waits for the value: a template whose typed keys are
// parameters without defaults loads.
TEST_F(RouteTemplateTest, AnUnusedTemplateWhoseTypedKeysAreParametersLoads) {
  loadYaml(R"(
- routeTemplate:
    id: timed
    parameters:
      - name: period
      - name: copies
      - name: flag
        defaultValue: "true"
    from:
      uri: timer:{{period}}
      steps:
        - loop:
            constant: "{{copies}}"
            copy: "{{flag}}"
            steps: [{to: mock:x}]
        - delay: {constant: "{{period}}", asyncDelayed: "{{copies}}"}
)");
}

TEST_F(RouteTemplateTest, BadTemplateEntriesAreReported) {
  EXPECT_NE(yamlError(R"(
- routeTemplate:
    from: {uri: direct:x}
)").find("routeTemplate needs 'id' at routes.yaml:2:3"),
            std::string::npos);
  EXPECT_NE(yamlError(R"(
- routeTemplate:
    id: t
    parameters: [{name: a, defualt: b}]
    from: {uri: direct:x}
)").find("unknown key 'defualt' in a template parameter at routes.yaml:4:28"),
            std::string::npos);
  EXPECT_NE(xmlError(R"(<routeTemplates><routeTemplate id="t"><templateParameter name="a"/></routeTemplate></routeTemplates>)")
                .find("<routeTemplate> needs a <route>"),
            std::string::npos);
  EXPECT_NE(xmlError(R"(<templatedRoutes><route/></templatedRoutes>)")
                .find("unknown element <route> in <templatedRoutes> at routes.xml:1:18"),
            std::string::npos);
  EXPECT_NE(yamlError(R"(
- routeTemplate: {id: t, from: {uri: direct:t}}
- routeTemplate: {id: t, from: {uri: direct:u}}
)").find("route template id 't' is used twice at routes.yaml:3:23"),
            std::string::npos);
}

// Each malformed template entry, and the message it gets (with its position).
TEST_F(RouteTemplateTest, EveryMalformedEntryIsReportedWhereItIs) {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case yaml[] = {
      {"- routeTemplate: {id: t}", "routeTemplate needs 'from' (or 'route') at routes.yaml:1:3"},
      {"- routeTemplate: {id: t, from: {uri: direct:a}, route: {from: {uri: direct:b}}}",
       "a routeTemplate has one route: from or route at routes.yaml:1:49"},
      {"- routeTemplate: {id: t, beans: [], from: {uri: direct:a}}",
       "beans in a routeTemplate cannot be created here at routes.yaml:1:26"},
      {"- routeTemplate: {id: t, form: {uri: direct:a}}",
       "unknown key 'form' in routeTemplate at routes.yaml:1:26; did you mean 'from'?"},
      {"- routeTemplate: {id: t, parameters: [{defaultValue: x}], from: {uri: direct:a}}",
       "a template parameter needs 'name' at routes.yaml:1:39"},
      {"- routeTemplate: {id: t, parameters: {name: a}, from: {uri: direct:a}}",
       "parameters must be a list at routes.yaml:1:38"},
      {"- routeTemplate: {id: t, parameters: [{name: a, required: maybe}], from: {uri: direct:a}}",
       "required must be true or false, not 'maybe' at routes.yaml:1:59"},
      {"- templatedRoute: {routeId: x}", "templatedRoute needs 'routeTemplateRef' at routes.yaml:1:3"},
      {"- templatedRoute: {routeTemplateRef: t, parameters: [{name: a}]}",
       "a parameter must be a map with name and value at routes.yaml:1:54"},
      {"- templatedRoute: {routeTemplateRef: t, parameters: [{name: a, value: b, valeu: c}]}",
       "unknown key 'valeu' in a parameter at routes.yaml:1:74; did you mean 'value'?"},
      {"- templatedRoute: {routeTemplateRef: t, beans: []}",
       "beans in a templatedRoute cannot be created here at routes.yaml:1:41"},
      {"- templatedRoute: {routeTemplateRef: t, prefixId: p}",
       "unknown key 'prefixId' in templatedRoute at routes.yaml:1:41"},
      {"- routeTemplate: {id: t, parameters: [{name: a}], from: {uri: \"direct:{{a}}\"}}\n"
       "- templatedRoute: {routeTemplateRef: t, parameters: [{name: a, value: x}, {name: a, "
       "value: y}]}",
       "parameter 'a' is given twice at routes.yaml:2:82"},
  };
  for (const Case& c : yaml) {
    Context context;
    registerBuiltinComponents(context);
    auto loaded = loadYamlRoutes(context, c.text, "routes.yaml");
    ASSERT_FALSE(loaded) << c.text;
    EXPECT_NE(loaded.error().toString().find(c.expected), std::string::npos)
        << loaded.error().toString();
  }
  const Case xml[] = {
      {"<routeTemplates><routeTemplate><route><from uri=\"direct:a\"/></route></routeTemplate>"
       "</routeTemplates>",
       "<routeTemplate> needs 'id' at routes.xml:1:17"},
      {"<routeTemplates><routeTemplate id=\"t\"><templateParameter defaultValue=\"x\"/>"
       "</routeTemplate></routeTemplates>",
       "<templateParameter> needs 'name' at routes.xml:1:39"},
      {"<routeTemplates><routeTemplate id=\"t\"><from uri=\"direct:a\"/></routeTemplate>"
       "</routeTemplates>",
       "unknown element <from> in <routeTemplate> at routes.xml:1:39"},
      {"<routeTemplates><routeTemplate id=\"t\"><route><from uri=\"direct:a\"/></route>"
       "<route><from uri=\"direct:b\"/></route></routeTemplate></routeTemplates>",
       "a <routeTemplate> holds one <route> at routes.xml:1:76"},
      {"<templatedRoutes><templatedRoute routeId=\"x\"/></templatedRoutes>",
       "<templatedRoute> needs 'routeTemplateRef' at routes.xml:1:18"},
      {"<templatedRoutes><templatedRoute routeTemplateRef=\"t\"><parameter name=\"a\"/>"
       "</templatedRoute></templatedRoutes>",
       "<parameter> needs 'name' and 'value' at routes.xml:1:55"},
      {"<templatedRoutes><templatedRoute routeTemplateRef=\"t\" prefixId=\"p\"/></templatedRoutes>",
       "unknown attribute 'prefixId' in templatedRoute at routes.xml:1:55"},
  };
  for (const Case& c : xml) {
    Context context;
    registerBuiltinComponents(context);
    auto loaded = loadXmlRoutes(context, c.text, "routes.xml");
    ASSERT_FALSE(loaded) << c.text;
    EXPECT_NE(loaded.error().toString().find(c.expected), std::string::npos)
        << loaded.error().toString();
  }
}

TEST_F(RouteTemplateTest, AnOptionalParameterLeftOutFallsBackToTheProperties) {
  h.context.properties().set("suffix", "from-properties");
  loadYaml(R"(
- routeTemplate:
    id: t
    parameters:
      - {name: suffix, required: false}
    from:
      uri: direct:t
      steps:
        - setBody: {simple: "${body}-{{suffix}}"}
        - to: mock:t
- templatedRoute: {routeTemplateRef: t}
)");
  ASSERT_TRUE(h.producer.sendBody("direct:t", "x"));
  EXPECT_EQ(bodies("mock:t"), (std::vector<std::string>{"x-from-properties"}));
}

TEST_F(RouteTemplateTest, CodeAddsRoutesFromAFileTemplateToARunningContext) {
  loadYaml(kGreeterYaml);
  auto id = h.context.addRouteFromTemplate("hello-bob", "greeter", {{"name", "bob"}});
  ASSERT_TRUE(id) << id.error().toString();
  EXPECT_EQ(*id, "hello-bob");
  EXPECT_EQ(h.context.routeStatus("hello-bob"), RouteStatus::Started);
  ASSERT_TRUE(h.producer.sendBody("direct:bob", "hi"));
  EXPECT_EQ(bodies("mock:greetings"), (std::vector<std::string>{"Hello bob: hi"}));
  auto missing = h.context.addRouteFromTemplate("", "greeter", {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "route template 'greeter' needs the parameter name");
  auto unknown = h.context.addRouteFromTemplate("", "greet", {});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message,
            "unknown route template 'greet'; did you mean 'greeter'?; known templates: greeter");
}

TEST(CppRouteTemplateTest, ATemplateIsAFunctionOfItsParameters) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRouteTemplate(
      "greeter", {{"name"}, {"greeting", "Hello"}},
      [](RouteBuilder& b, const TemplateParameters& p) {
        b.from("direct:" + p.at("name"))
            .setBody(constant(p.at("greeting") + " " + p.at("name")))
            .to("mock:out");
      }));
  auto first = h.context.addRouteFromTemplate("", "greeter", {{"name", "ann"}});
  ASSERT_TRUE(first) << first.error().toString();
  EXPECT_EQ(*first, "route1");
  ASSERT_TRUE(h.context.addRouteFromTemplate("b", "greeter", {{"name", "bo"}, {"greeting", "Hi"}}));
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:ann", "x"));
  ASSERT_TRUE(h.producer.sendBody("direct:bo", "x"));
  auto got = h.mock("mock:out").receivedExchanges();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]->message().body(), Value("Hello ann"));
  EXPECT_EQ(got[1]->message().body(), Value("Hi bo"));
}

TEST(CppRouteTemplateTest, ATemplateMustMakeOneRouteAndHaveAnIdOfItsOwn) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRouteTemplate("two", {}, [](RouteBuilder& b, const TemplateParameters&) {
    b.from("direct:a").to("mock:a");
    b.from("direct:b").to("mock:b");
  }));
  auto two = h.context.addRouteFromTemplate("", "two", {});
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().message, "route template 'two' must make exactly one route, not 2");
  auto again = h.context.addRouteTemplate("two", {}, [](RouteBuilder&, const TemplateParameters&) {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().message, "route template id 'two' is used by more than one template");
  auto unnamed = h.context.addRouteTemplate("", {}, [](RouteBuilder&, const TemplateParameters&) {});
  ASSERT_FALSE(unnamed);
  EXPECT_EQ(unnamed.error().message, "a route template needs an id");
  auto empty = h.context.addRouteTemplate("empty", RouteTemplate{});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, "route template 'empty' has nothing to build its route");
}

}  // namespace
}  // namespace dromedary::testing

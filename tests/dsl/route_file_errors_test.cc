// SPDX-License-Identifier: Apache-2.0
// The remaining load errors of route files, word for word: step shapes, files and paths.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include <dromedary/dsl/route_loader.h>

#include "support/route_harness.h"

namespace dromedary::testing {
namespace {

std::string yamlError(const char* text) {
  RouteHarness h;
  auto r = loadYamlRoutes(h.context, text, "r.yaml");
  return r ? std::string() : r.error().toString();
}

std::string xmlError(const char* text) {
  RouteHarness h;
  auto r = loadXmlRoutes(h.context, text, "r.xml");
  return r ? std::string() : r.error().toString();
}

TEST(RouteFileErrorsTest, AutoStartupMustBeABoolean) {
  EXPECT_EQ(yamlError("- route:\n    autoStartup: maybe\n    from:\n      uri: direct:a\n"),
            "autoStartup must be true or false, not 'maybe' at r.yaml:2:5");
}

TEST(RouteFileErrorsTest, ShutdownOptionsTakeCamelsValues) {
  EXPECT_EQ(yamlError("- route:\n    shutdownRoute: Later\n    from:\n      uri: direct:a\n"),
            "shutdownRoute must be Default or Defer, not 'Later' at r.yaml:2:5");
  EXPECT_EQ(xmlError("<route shutdownRunningTask=\"All\"><from uri=\"direct:a\"/></route>"),
            "shutdownRunningTask must be CompleteCurrentTaskOnly or CompleteAllTasks, not 'All' "
            "at r.xml:1:8");
  EXPECT_EQ(yamlError("- route:\n    shutdown-running-task: CompleteCurrentTaskOnly\n"
                      "    shutdown-route: Defer\n    from:\n      uri: direct:a\n"),
            "");
}

TEST(RouteFileErrorsTest, StreamCacheIsAcceptedAsABoolean) {
  EXPECT_EQ(yamlError("- route:\n    streamCache: true\n    from:\n      uri: direct:a\n"), "");
  EXPECT_EQ(xmlError("<route streamCache=\"false\"><from uri=\"direct:a\"/></route>"), "");
  EXPECT_EQ(yamlError("- route:\n    stream-cache: often\n    from:\n      uri: direct:a\n"),
            "streamCache must be true or false, not 'often' at r.yaml:2:5");
}

// A misspelt key is reported as one even when its value is a map (not as a shape mistake).
TEST(RouteFileErrorsTest, AnUnknownKeyHoldingAMapIsAnUnknownKey) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - log:\n"
                      "          mesage: {a: 1}\n"),
            "unknown key 'mesage' in log at r.yaml:5:11; did you mean 'message'?");
}

TEST(RouteFileErrorsTest, ANulByteIsReportedWhereItIs) {
  std::string yaml = "- from:\n    uri: direct:a";
  yaml += '\0';
  yaml += "\n";
  RouteHarness h;
  auto r = loadYamlRoutes(h.context, yaml, "r.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().toString(),
            "a NUL byte at r.yaml:2:18; a route file is text: is this the file meant?");
  auto x = loadXmlRoutes(h.context, std::string("<routes>\0</routes>", 18), "r.xml");
  ASSERT_FALSE(x);
  EXPECT_EQ(x.error().toString(),
            "a NUL byte at r.xml:1:9; a route file is text: is this the file meant?");
}

TEST(RouteFileErrorsTest, RouteNeedsFrom) {
  EXPECT_EQ(yamlError("- route:\n    id: x\n"), "route needs 'from' at r.yaml:2:5");
}

TEST(RouteFileErrorsTest, StepThatTakesNoExpression) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - to:\n          uri: mock:a\n"
                      "          simple: x\n"),
            "to takes no expression ('simple') at r.yaml:6:11");
}

TEST(RouteFileErrorsTest, StepThatTakesNoNestedSteps) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - setBody:\n          constant: x\n"
                      "          steps:\n            - to: mock:a\n"),
            "setBody takes no nested steps at r.yaml:7:15");
}

TEST(RouteFileErrorsTest, ParametersOnlyOnEndpoints) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - log:\n          message: x\n"
                      "          parameters:\n            level: INFO\n"),
            "log takes no endpoint parameters at r.yaml:7:20");
}

TEST(RouteFileErrorsTest, ChoiceNeedsAWhen) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - choice:\n          otherwise:\n"
                      "            steps:\n              - to: mock:a\n"),
            "choice needs at least one when at r.yaml:4:9");
}

TEST(RouteFileErrorsTest, WhenNeedsAPredicate) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - choice:\n          when:\n"
                      "            - steps:\n                - to: mock:a\n"),
            "when needs a predicate at r.yaml:6:15; write it as simple, constant, header or "
            "exchangeProperty");
}

TEST(RouteFileErrorsTest, NumbersMustBeWholeNumbers) {
  EXPECT_EQ(yamlError("- from:\n    uri: direct:a\n    steps:\n      - threads:\n"
                      "          poolSize: many\n"),
            "poolSize must be a whole number, not 'many' at r.yaml:5:11");
}

TEST(RouteFileErrorsTest, XmlRouteWithTwoFroms) {
  EXPECT_EQ(xmlError("<route><from uri=\"direct:a\"/><from uri=\"direct:b\"/></route>"),
            "a route has one <from> at r.xml:1:30");
}

TEST(RouteFileErrorsTest, XmlLanguageElementIsRefusedWithTheForms) {
  EXPECT_EQ(xmlError("<route><from uri=\"direct:a\"/><setBody><language language=\"groovy\">1"
                     "</language></setBody></route>"),
            "<language> is not supported at r.xml:1:39; write the expression as <simple>, "
            "<constant>, <header> or <exchangeProperty>");
}

class RoutePathsTest : public ::testing::Test {
 protected:
  // A folder per test and process: CTest runs these tests in parallel processes.
  RoutePathsTest()
      : dir(std::filesystem::temp_directory_path() /
            fmt::format("dromedary-paths-test-{}-{}",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                        ::getpid())) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "empty");
    std::ofstream(dir / "notes.txt") << "not routes";
  }
  ~RoutePathsTest() override { std::filesystem::remove_all(dir); }
  std::string error(const std::string& path) {
    RouteHarness h;
    auto r = loadRoutes(h.context, {path});
    return r ? std::string() : r.error().toString();
  }
  std::filesystem::path dir;
};

// A FIFO would block the load for ever: only regular files and folders are read.
TEST_F(RoutePathsTest, APipeIsRefusedNamingIt) {
  std::string fifo = dir.string() + "/routes.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(error(fifo),
            fmt::format("'{}' is not a regular file or a folder (a pipe, socket or device): route "
                        "files are read from regular files",
                        fifo));
}

TEST_F(RoutePathsTest, MissingPath) {
  std::string path = (dir / "nope.yaml").string();
  EXPECT_EQ(error(path), fmt::format("no such file or directory: '{}'", path));
}

TEST_F(RoutePathsTest, FileThatIsNotARouteFile) {
  std::string path = (dir / "notes.txt").string();
  EXPECT_EQ(error(path),
            fmt::format("'{}' is not a route file: expected .yaml, .yml or .xml", path));
}

// As Camel JBang's `camel run petstore.json routes.yaml extra.properties` (or `camel run *`):
// other files and folders named with the routes are resources, and properties files are read.
TEST_F(RoutePathsTest, OtherFilesAndFoldersNamedWithTheRoutesAreResources) {
  std::ofstream(dir / "routes.yaml") << "- from: {uri: direct:a, steps: [{setBody: {simple: "
                                        "\"{{greeting}} ${body}\"}}, {to: mock:out}]}\n";
  std::ofstream(dir / "extra.properties") << "greeting=hello\n";
  RouteHarness h;
  auto r = loadRoutes(h.context, {(dir / "notes.txt").string(), (dir / "routes.yaml").string(),
                                  (dir / "extra.properties").string(), (dir / "empty").string()});
  ASSERT_TRUE(r) << r.error().toString();
  EXPECT_EQ(r->files.size(), 1u);
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().at(0)->message().body().as<std::string>(),
            "hello x");
  std::string notes;
  for (const std::string& n : r->notes) notes += n + "\n";
  EXPECT_NE(notes.find("holds no route files: read as a resource"), std::string::npos) << notes;
  // Named alone, they are still refused.
  EXPECT_EQ(error((dir / "extra.properties").string()),
            fmt::format("'{}' is not a route file: expected .yaml, .yml or .xml",
                        (dir / "extra.properties").string()));
}

// As Camel JBang runs a folder: compose files, Kubernetes manifests, test files and XML of
// other kinds beside the routes are not read as routes; a file named alone always is.
TEST_F(RoutePathsTest, AFolderIsReadForItsCamelFilesOnly) {
  std::filesystem::create_directories(dir / "app");
  std::ofstream(dir / "app" / "routes.yaml") << "- from:\n    uri: direct:a\n    steps:\n"
                                                "      - log: a\n";
  std::ofstream(dir / "app" / "camel.xml")
      << "<?xml version=\"1.0\"?>\n<!-- routes -->\n<routes xmlns=\"http://camel.apache.org/"
         "schema/spring\"><route><from uri=\"direct:b\"/><log message=\"b\"/></route></routes>";
  std::ofstream(dir / "app" / "docker-compose.yaml") << "services:\n  db:\n    image: x\n";
  std::ofstream(dir / "app" / "deployment.yaml") << "apiVersion: v1\nkind: Service\n";
  std::ofstream(dir / "app" / "settings.xml") << "<settings><mirrors/></settings>";
  RouteHarness h;
  auto r = loadRoutes(h.context, {(dir / "app").string()});
  ASSERT_TRUE(r) << r.error().toString();
  EXPECT_EQ(r->routes, 2u);
  EXPECT_EQ(r->files.size(), 2u);
  int skipped = 0;
  for (const std::string& note : r->notes) skipped += note.starts_with("skipped ");
  EXPECT_EQ(skipped, 3);
  // Named alone, it is read, and says what is wrong with it.
  EXPECT_NE(error((dir / "app" / "deployment.yaml").string()), "");
}

// Camel's resource:classpath: and resource:file: expressions: the text of a file, read when
// the route starts; classpath: is the route files' folders. A missing one fails the start.
TEST_F(RoutePathsTest, AnExpressionFromAResourceIsReadAtStart) {
  std::filesystem::create_directories(dir / "app");
  std::ofstream(dir / "app" / "greeting.txt") << "Hello ${body}";
  std::ofstream(dir / "farewell.txt") << "Bye ${body}";
  std::ofstream(dir / "app" / "routes.yaml")
      << "- from:\n    uri: direct:a\n    steps:\n"
         "      - setBody: {simple: \"resource:classpath:greeting.txt\"}\n"
         "      - setHeader: {name: bye, simple: \"resource:file:"
      << (dir / "farewell.txt").string()
      << "\"}\n      - setHeader: {name: raw, simple: \"[${resource:classpath:greeting.txt}]\"}"
         "\n      - to: mock:out\n";
  RouteHarness h;
  auto r = loadRoutes(h.context, {(dir / "app").string()});
  ASSERT_TRUE(r) << r.error().toString();
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:a", "Camel"));
  const auto& ex = *h.mock("mock:out").receivedExchanges().at(0);
  EXPECT_EQ(ex.message().body().as<std::string>(), "Hello Camel");
  EXPECT_EQ(ex.message().getHeader("bye")->as<std::string>(), "Bye Hello Camel");
  EXPECT_EQ(ex.message().getHeader("raw")->as<std::string>(), "[Hello ${body}]")
      << "${resource:...} is the file's text, as it is";

  std::filesystem::create_directories(dir / "bad");
  std::ofstream(dir / "bad" / "routes.yaml")
      << "- from:\n    uri: direct:b\n    steps:\n"
         "      - setBody: {simple: \"resource:classpath:missing.txt\"}\n";
  RouteHarness other;
  auto loaded = loadRoutes(other.context, {(dir / "bad").string()});
  std::string e;
  if (!loaded) {
    e = loaded.error().toString();
  } else if (auto started = other.context.start(); !started) {
    e = started.error().toString();
  }
  EXPECT_NE(e.find("resource:classpath:missing.txt is not in the route files' folders"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("routes.yaml:4:"), std::string::npos) << e;

  std::ofstream(dir / "bad" / "routes.yaml")
      << "- from:\n    uri: direct:b\n    steps:\n"
         "      - setBody: {simple: \"resource:http://example.com/x.txt\"}\n";
  RouteHarness third;
  auto http = loadRoutes(third.context, {(dir / "bad").string()});
  std::string e2;
  if (!http) {
    e2 = http.error().toString();
  } else if (auto started = third.context.start(); !started) {
    e2 = started.error().toString();
  }
  EXPECT_NE(e2.find("resource:http://example.com/x.txt: only resource:file: and "
                    "resource:classpath: can be read"),
            std::string::npos)
      << e2;
}

// Camel main's camel.route-template[N].* properties make routes from a template; a missing
// template-id or an unknown template is an error naming the property.
TEST_F(RoutePathsTest, PropertiesMakeRoutesFromATemplate) {
  std::filesystem::create_directories(dir / "app");
  std::ofstream(dir / "app" / "template.yaml")
      << "- routeTemplate:\n    id: mytemplate\n    parameters:\n      - name: input\n"
         "      - name: result\n    from:\n      uri: \"direct:{{input}}\"\n      steps:\n"
         "        - to: \"mock:{{result}}\"\n";
  std::ofstream(dir / "app" / "application.properties")
      << "camel.route-template[0].template-id=mytemplate\n"
         "camel.route-template[0].input=foo\ncamel.route-template[0].result=cheese\n"
         "camel.route-template[1].template-id=mytemplate\ncamel.route-template[1].route-id=bar\n"
         "camel.route-template[1].input=bar\ncamel.route-template[1].result=wine\n";
  RouteHarness h;
  auto r = loadRoutes(h.context, {(dir / "app").string()});
  ASSERT_TRUE(r) << r.error().toString();
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:foo", "1"));
  ASSERT_TRUE(h.producer.sendBody("direct:bar", "2"));
  EXPECT_EQ(h.mock("mock:cheese").receivedCount(), 1u);
  EXPECT_EQ(h.mock("mock:wine").receivedCount(), 1u);
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "bar"), ids.end()) << "route-id names the route";
  EXPECT_NE(std::find(ids.begin(), ids.end(), "0"), ids.end()) << "else the group's id does";

  std::ofstream(dir / "app" / "application.properties")
      << "camel.route-template[0].template-id=mytemplat\n";
  RouteHarness other;
  EXPECT_EQ(loadRoutes(other.context, {(dir / "app").string()}).error().message,
            "unknown route template 'mytemplat' at property "
            "camel.route-template[0].template-id; did you mean 'mytemplate'?");
  std::ofstream(dir / "app" / "application.properties") << "camel.route-template[0].input=x\n";
  RouteHarness third;
  EXPECT_EQ(loadRoutes(third.context, {(dir / "app").string()}).error().message,
            "camel.route-template[0]: no template-id: which routeTemplate to make a route from");
  std::ofstream(dir / "app" / "application.properties")
      << "camel.route-template.one.template-id=mytemplate\n";
  RouteHarness fourth;
  EXPECT_EQ(loadRoutes(fourth.context, {(dir / "app").string()}).error().message,
            "property 'camel.route-template.one.template-id': expected "
            "camel.route-template[N].KEY (such as camel.route-template[0].template-id)");
}

// As Camel JBang: application-dev.properties (the default profile's) over
// application.properties; camel.main.profile picks another profile.
TEST_F(RoutePathsTest, TheProfilesPropertiesAreReadOverTheApplicationProperties) {
  std::filesystem::create_directories(dir / "app");
  std::ofstream(dir / "app" / "routes.yaml")
      << "- from:\n    uri: direct:a\n    steps:\n"
         "      - setBody: {constant: \"{{greeting}} {{name}}\"}\n      - to: mock:out\n";
  std::ofstream(dir / "app" / "application.properties") << "greeting=hi\nname=all\n";
  std::ofstream(dir / "app" / "application-dev.properties") << "greeting=hello\n";
  std::ofstream(dir / "app" / "application-test.properties") << "greeting=testing\n";
  for (auto [profile, expected] : {std::pair{"", "hello all"}, {"test", "testing all"}}) {
    RouteHarness h;
    if (*profile) h.context.properties().set("camel.main.profile", profile);
    auto r = loadRoutes(h.context, {(dir / "app").string()});
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_TRUE(h.context.start());
    ASSERT_TRUE(h.producer.sendBody("direct:a", "x"));
    EXPECT_EQ(h.mock("mock:out").receivedExchanges().at(0)->message().body().as<std::string>(),
              expected);
  }
}

TEST_F(RoutePathsTest, AFolderOfOtherYamlSaysItHoldsNoRoutes) {
  std::ofstream(dir / "empty" / "values.yaml") << "replicas: 2\n";
  std::string path = (dir / "empty").string();
  EXPECT_NE(error(path).find(fmt::format("no route files in '{}': 1 YAML or XML file(s) there "
                                         "hold no routes",
                                         path)),
            std::string::npos)
      << error(path);
}

TEST_F(RoutePathsTest, DirectoryWithoutRouteFiles) {
  std::string path = (dir / "empty").string();
  EXPECT_EQ(error(path), fmt::format("no route files (*.yaml, *.yml, *.xml) in '{}'", path));
}

}  // namespace
}  // namespace dromedary::testing

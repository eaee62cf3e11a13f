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

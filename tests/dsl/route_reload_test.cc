// SPDX-License-Identifier: Apache-2.0
// Reloading routes from edited files while the context runs (`dromedary run --dev`).
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <dromedary/component/mock/mock_endpoint.h>
#include <dromedary/dromedary.h>
#include <dromedary/dsl/route_reloader.h>

namespace dromedary {
namespace {

namespace fs = std::filesystem;
using component::mock::MockEndpoint;
using namespace std::chrono_literals;

// Two routes: `a` (no placeholder) and `b`, whose body is `b_body`.
std::string twoRoutes(const std::string& b_body) {
  return fmt::format(R"(- route:
    id: a
    from:
      uri: direct:a
      steps:
        - to: mock:a
- route:
    id: b
    from:
      uri: direct:b
      steps:
        - setBody:
            constant: "{}"
        - to: mock:b
)",
                     b_body);
}

class RouteReloadTest : public ::testing::Test {
 protected:
  RouteReloadTest()
      : dir(fs::temp_directory_path() /
            fmt::format("dromedary-reload-test-{}-{}",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                        ::getpid())),
        reloader(context, {dir.string()}, [](Context& c, bool fresh) -> Result<void> {
          if (fresh) registerBuiltinComponents(c);
          return {};
        }) {
    setLogLevel(LoggingLevel::Warn);
    fs::remove_all(dir);
    fs::create_directories(dir);
    context.setShutdownTimeout(5s);
  }
  ~RouteReloadTest() override {
    context.stop();
    fs::remove_all(dir);
  }

  // Writes a file as editors save: a new file renamed over the old one.
  void save(const std::string& name, const std::string& text) {
    fs::path tmp = dir / (".tmp-" + name);
    std::ofstream(tmp) << text;
    fs::rename(tmp, dir / name);
  }
  void start() {
    auto loaded = reloader.load();
    ASSERT_TRUE(loaded) << loaded.error().toString();
    auto started = context.start();
    ASSERT_TRUE(started) << started.error().toString();
  }
  ReloadOutcome reload() {
    auto outcome = reloader.reload();
    EXPECT_TRUE(outcome) << outcome.error().toString();
    return outcome ? *outcome : ReloadOutcome{};
  }
  MockEndpoint& mock(std::string_view uri) { return context.getEndpoint<MockEndpoint>(uri); }
  uint64_t exchanges(std::string_view route) {
    auto stats = context.routeStatistics(route);
    return stats ? stats->exchangesTotal : 0;
  }

  fs::path dir;
  Context context;
  ProducerTemplate producer{context};
  RouteReloader reloader;
};

TEST_F(RouteReloadTest, AnEditedStepSwapsOnlyItsRouteAndKeepsTheOthersStatistics) {
  save("routes.yaml", twoRoutes("v1"));
  start();
  ASSERT_TRUE(producer.sendBody("direct:a", "x"));
  ASSERT_TRUE(producer.sendBody("direct:a", "y"));
  ASSERT_TRUE(producer.sendBody("direct:b", "z"));

  save("routes.yaml", twoRoutes("v2"));
  ReloadOutcome outcome = reload();
  EXPECT_TRUE(outcome.changed);
  EXPECT_EQ(outcome.swapped, std::vector<std::string>{"b"});
  EXPECT_TRUE(outcome.added.empty());
  EXPECT_EQ(outcome.kept, 1u);

  ASSERT_TRUE(producer.sendBody("direct:b", "z"));
  EXPECT_EQ(mock("mock:b").receivedBodies(), (std::vector<Value>{Value("v1"), Value("v2")}));
  EXPECT_EQ(exchanges("a"), 2u) << "route a kept running with its statistics";
  EXPECT_EQ(exchanges("b"), 1u) << "route b is new: its statistics start again";
  EXPECT_EQ(context.routeStatus("b"), RouteStatus::Started);
}

TEST_F(RouteReloadTest, MovingARouteOrEditingCommentsChangesNothing) {
  save("routes.yaml", twoRoutes("v1"));
  start();
  save("routes.yaml", "# a comment\n\n" + twoRoutes("v1"));
  ReloadOutcome outcome = reload();
  EXPECT_FALSE(outcome.changed);
  EXPECT_EQ(outcome.kept, 2u);
  EXPECT_NE(outcome.summary().find("no route changed (2 kept)"), std::string::npos)
      << outcome.summary();
}

// A load that keeps nothing for reloading (validate, run without --dev) cannot be reloaded:
// it says so and leaves the routes running.
TEST_F(RouteReloadTest, AReloadAfterALoadThatKeptNothingFailsAndChangesNothing) {
  save("routes.yaml", twoRoutes("v1"));
  auto loaded = reloader.load(false);
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(context.start());
  save("routes.yaml", twoRoutes("v2"));
  auto outcome = reloader.reload();
  ASSERT_FALSE(outcome);
  EXPECT_NE(outcome.error().message.find("load(false)"), std::string::npos)
      << outcome.error().message;
  ASSERT_TRUE(producer.sendBody("direct:b", "z"));
  EXPECT_EQ(mock("mock:b").receivedBodies(), std::vector<Value>{Value("v1")});
}

TEST_F(RouteReloadTest, ANewRouteStartsAndARemovedOneStops) {
  save("routes.yaml", twoRoutes("v1"));
  start();
  save("more.yaml", "- route:\n    id: c\n    from:\n      uri: direct:c\n      steps:\n"
                    "        - to: mock:c\n");
  ReloadOutcome added = reload();
  EXPECT_EQ(added.added, std::vector<std::string>{"c"});
  EXPECT_EQ(added.kept, 2u);
  ASSERT_TRUE(producer.sendBody("direct:c", "hello"));
  EXPECT_EQ(mock("mock:c").receivedCount(), 1u);

  fs::remove(dir / "more.yaml");
  ReloadOutcome removed = reload();
  EXPECT_EQ(removed.removed, std::vector<std::string>{"c"});
  EXPECT_EQ(context.routeIds(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(RouteReloadTest, ABrokenEditKeepsTheRunningRoutesAndSaysWhereThenTheFixLoads) {
  save("routes.yaml", twoRoutes("v1"));
  start();
  std::string broken = twoRoutes("v2");
  broken.replace(broken.find("setBody"), 7, "setBdy");
  save("routes.yaml", broken);
  auto failed = reloader.reload();
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().toString().find(
                fmt::format("unknown step 'setBdy' at {}:12:11", (dir / "routes.yaml").string())),
            std::string::npos)
      << failed.error().toString();
  ASSERT_TRUE(producer.sendBody("direct:b", "z"));
  EXPECT_EQ(mock("mock:b").receivedBodies(), std::vector<Value>{Value("v1")})
      << "the old route still runs";

  save("routes.yaml", twoRoutes("v2"));
  EXPECT_EQ(reload().swapped, std::vector<std::string>{"b"});
  ASSERT_TRUE(producer.sendBody("direct:b", "z"));
  EXPECT_EQ(mock("mock:b").receivedBodies(), (std::vector<Value>{Value("v1"), Value("v2")}));
}

// A route that compiles (so the scratch context takes it) but does not start in the running
// context: the error says which routes the reload stopped, and the next good save brings the
// route back.
TEST_F(RouteReloadTest, ARouteThatDoesNotStartIsNamedAsStoppedAndTheNextSaveBringsItBack) {
  save("routes.yaml", twoRoutes("v1"));
  start();
  std::string not_starting = twoRoutes("v2");
  not_starting.replace(not_starting.find("direct:b"), 8, "\"timer:b?period=0\"");
  save("routes.yaml", not_starting);
  auto failed = reloader.reload();
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("period must be positive"), std::string::npos)
      << failed.error().message;
  EXPECT_NE(failed.error().message.find(
                "(route b stopped for the reload and not running; the next save tries again)"),
            std::string::npos)
      << failed.error().message;
  EXPECT_EQ(context.routeStatus("a"), RouteStatus::Started) << "the unchanged route runs on";

  save("routes.yaml", twoRoutes("v2"));
  ReloadOutcome outcome = reload();
  EXPECT_TRUE(outcome.changed);
  EXPECT_EQ(context.routeStatus("b"), RouteStatus::Started);
  ASSERT_TRUE(producer.sendBody("direct:b", "z"));
  EXPECT_EQ(mock("mock:b").receivedBodies(), std::vector<Value>{Value("v2")});
}

TEST_F(RouteReloadTest, AnEditedPropertyChangesOnlyTheRoutesThatUseIt) {
  save("application.properties", "greeting=hi\n");
  std::string routes = twoRoutes("v1");
  routes.replace(routes.find("mock:a"), 6, "mock:a-{{greeting}}");
  save("routes.yaml", routes);
  start();
  save("application.properties", "greeting=bye\n");
  ReloadOutcome outcome = reload();
  EXPECT_EQ(outcome.swapped, std::vector<std::string>{"a"});
  EXPECT_EQ(outcome.kept, 1u);
  ASSERT_TRUE(producer.sendBody("direct:a", "x"));
  EXPECT_EQ(mock("mock:a-bye").receivedCount(), 1u);
}

TEST_F(RouteReloadTest, ARouteWithoutIdIsKnownByItsFileAndPlace) {
  save("routes.yaml", "- from:\n    uri: direct:n\n    steps:\n      - to: mock:n1\n");
  start();
  save("routes.yaml", "- from:\n    uri: direct:n\n    steps:\n      - to: mock:n2\n");
  ReloadOutcome outcome = reload();
  ASSERT_EQ(outcome.swapped.size(), 1u);
  EXPECT_EQ(context.routeIds().size(), 1u);
  ASSERT_TRUE(producer.sendBody("direct:n", "x"));
  EXPECT_EQ(mock("mock:n2").receivedCount(), 1u);
}

// A Kamelet's instance route gets the id it got the first time (set-body-action-1), so a route
// using a Kamelet is unchanged when another route changes.
TEST_F(RouteReloadTest, RoutesUsingKameletsKeepTheirInstancesWhenAnotherRouteChanges) {
  auto routes = [](const std::string& b_body) {
    return twoRoutes(b_body) + R"(- route:
    id: k
    from:
      uri: direct:k
      steps:
        - to: "kamelet:set-body-action?value=from-kamelet"
        - to: mock:k
)";
  };
  save("routes.yaml", routes("v1"));
  start();
  std::vector<std::string> before = context.routeIds();
  save("routes.yaml", routes("v2"));
  ReloadOutcome outcome = reload();
  EXPECT_EQ(outcome.swapped, std::vector<std::string>{"b"});
  EXPECT_EQ(outcome.kept, before.size() - 1);
  ASSERT_TRUE(producer.sendBody("direct:k", "x"));
  EXPECT_EQ(mock("mock:k").receivedBodies(), std::vector<Value>{Value("from-kamelet")});
}

// A Kamelet file edited in a --kamelets folder changes the routes made from it.
TEST_F(RouteReloadTest, AnEditedKameletSwapsItsInstances) {
  fs::create_directories(dir / "kamelets");
  auto kamelet = [&](const std::string& prefix) {
    std::ofstream(dir / "kamelets" / "greet-action.kamelet.yaml")
        << "apiVersion: camel.apache.org/v1\nkind: Kamelet\nmetadata:\n  name: greet-action\n"
           "spec:\n  definition:\n    title: Greet\n    properties: {}\n  template:\n"
           "    from:\n      uri: kamelet:source\n      steps:\n        - setBody:\n"
           "            simple: \""
        << prefix << " ${body}\"\n";
  };
  kamelet("Hello");
  RouteReloader with_kamelets(context, {(dir / "routes.yaml").string()},
                              [&](Context& c, bool fresh) -> Result<void> {
                                if (fresh) registerBuiltinComponents(c);
                                c.properties().set("dromedary.kamelets",
                                                   (dir / "kamelets").string());
                                return {};
                              });
  save("routes.yaml", twoRoutes("v1") + R"(- route:
    id: k
    from:
      uri: direct:k
      steps:
        - to: kamelet:greet-action
        - to: mock:k
)");
  ASSERT_TRUE(with_kamelets.load());
  ASSERT_TRUE(context.start());
  kamelet("Bonjour");
  auto outcome = with_kamelets.reload();
  ASSERT_TRUE(outcome) << outcome.error().toString();
  EXPECT_EQ(outcome->swapped, std::vector<std::string>{"greet-action-1"});
  EXPECT_EQ(outcome->kept, 3u);
  ASSERT_TRUE(producer.sendBody("direct:k", "x"));
  EXPECT_EQ(mock("mock:k").receivedBodies(), std::vector<Value>{Value("Bonjour x")});
}

TEST_F(RouteReloadTest, AnEditedTemplateSwapsTheRoutesMadeFromIt) {
  auto routes = [](const std::string& greeting) {
    return fmt::format(R"(- routeTemplate:
    id: greeter
    parameters:
      - name: name
    from:
      uri: "direct:{{{{name}}}}"
      steps:
        - setBody:
            simple: "{} {{{{name}}}}"
        - to: mock:greetings
- templatedRoute:
    routeTemplateRef: greeter
    routeId: hello-one
    parameters:
      - {{name: name, value: one}}
- route:
    id: plain
    from:
      uri: direct:plain
      steps:
        - to: mock:plain
)",
                       greeting);
  };
  save("routes.yaml", routes("Hello"));
  start();
  save("routes.yaml", routes("Bonjour"));
  ReloadOutcome outcome = reload();
  EXPECT_EQ(outcome.swapped, std::vector<std::string>{"hello-one"});
  EXPECT_EQ(outcome.kept, 1u);
  ASSERT_TRUE(producer.sendBody("direct:one", "x"));
  EXPECT_EQ(mock("mock:greetings").receivedBodies(), std::vector<Value>{Value("Bonjour one")});
  EXPECT_EQ(context.routeTemplateIds(), std::vector<std::string>{"greeter"});
}

// The goal for direct: and seda: routes whose consumer is swapped: no message lost. A
// direct: producer waits for the new consumer; seda: messages wait in the queue (a producer
// faster than the consumer fills it: blockWhenFull makes it wait rather than fail, as in
// Camel).
TEST_F(RouteReloadTest, NoMessageIsLostWhileDirectAndSedaRoutesAreSwapped) {
  auto routes = [](int version) {
    return fmt::format(R"(- route:
    id: direct-work
    from:
      uri: direct:work
      steps:
        - setHeader:
            name: version
            constant: "{0}"
        - to: mock:direct-out
- route:
    id: seda-work
    from:
      uri: "seda:work?blockWhenFull=true"
      steps:
        - setHeader:
            name: version
            constant: "{0}"
        - to: mock:seda-out
)",
                       version);
  };
  save("routes.yaml", routes(0));
  start();
  constexpr int kMessages = 3000;
  std::atomic<int> failures{0};
  std::string first_failure;
  std::thread sender([&] {
    for (int i = 0; i < kMessages; ++i) {
      for (const char* uri : {"direct:work", "seda:work?blockWhenFull=true"}) {
        auto sent = producer.sendBody(uri, Value(int64_t{i}));
        if (!sent && failures++ == 0) first_failure = sent.error().toString();
      }
    }
  });
  for (int version = 1; version <= 5; ++version) {
    std::this_thread::sleep_for(5ms);
    save("routes.yaml", routes(version));
    EXPECT_EQ(reload().swapped.size(), 2u);
  }
  sender.join();
  EXPECT_EQ(failures.load(), 0) << first_failure;
  EXPECT_EQ(mock("mock:direct-out").receivedCount(), size_t{kMessages});
  MockEndpoint& seda = mock("mock:seda-out");
  seda.expectedMessageCount(kMessages);
  EXPECT_TRUE(seda.assertIsSatisfied(10s));
}

TEST_F(RouteReloadTest, TheWatcherSeesASaveAndIgnoresEditorFiles) {
  save("routes.yaml", twoRoutes("v1"));
  auto watcher = FileWatcher::watch({dir.string()});
  ASSERT_TRUE(watcher) << watcher.error().toString();
  std::ofstream(dir / ".routes.yaml.swp") << "x";
  std::ofstream(dir / "routes.yaml~") << "x";
  std::ofstream(dir / "notes.txt") << "x";
  EXPECT_TRUE((*watcher)->changes(50ms).empty());
  save("routes.yaml", twoRoutes("v2"));
  EXPECT_EQ((*watcher)->changes(1s), std::vector<std::string>{(dir / "routes.yaml").string()});
}

TEST_F(RouteReloadTest, AWatchedFileCountsButNotItsNeighbours) {
  save("routes.yaml", twoRoutes("v1"));
  auto watcher = FileWatcher::watch({(dir / "routes.yaml").string()});
  ASSERT_TRUE(watcher) << watcher.error().toString();
  save("other.yaml", twoRoutes("v1"));
  EXPECT_TRUE((*watcher)->changes(50ms).empty());
  save("application.properties", "x=1\n");
  EXPECT_EQ((*watcher)->changes(1s),
            std::vector<std::string>{(dir / "application.properties").string()});
}

// From an editor's save to the new route serving: the issue's goal is under 100 ms for a
// small file. Printed, not asserted (timings are not asserted in tests).
TEST_F(RouteReloadTest, FromSaveToTheNewRouteServing) {
  save("routes.yaml", twoRoutes("v0"));
  start();
  auto watcher = FileWatcher::watch({dir.string()});
  ASSERT_TRUE(watcher);
  std::chrono::microseconds worst{0};
  for (int version = 1; version <= 10; ++version) {
    auto begin = std::chrono::steady_clock::now();
    save("routes.yaml", twoRoutes(fmt::format("v{}", version)));
    ASSERT_FALSE((*watcher)->changes(1s).empty());
    ReloadOutcome outcome = reload();
    ASSERT_TRUE(producer.requestBody("direct:b", Value("x")));
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - begin);
    worst = std::max(worst, took);
    EXPECT_EQ(outcome.swapped, std::vector<std::string>{"b"});
  }
  std::printf("save to the new route serving: worst of 10 %.1f ms\n",
              static_cast<double>(worst.count()) / 1000.0);
  EXPECT_EQ(mock("mock:b").receivedCount(), 10u);
}

}  // namespace
}  // namespace dromedary

// SPDX-License-Identifier: Apache-2.0
// The file consumer against real folders: what it picks, in what order, with which headers,
// and what happens to a file after its exchange — only once the exchange completed.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>

#include "file_test_support.h"

namespace dromedary::testing {
namespace {

using FileConsumerTest = FileTest;

TEST_F(FileConsumerTest, AConsumedFileGoesToTheDotCamelFolderAfterItsExchange) {
  write("in/a.txt", "hello");
  harness.start([&](RouteBuilder& b) { b.from(uri("in")).to("mock:out"); });
  harness.mock("mock:out").expectedBodiesReceived({Value("hello")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(eventually([&] { return exists("in/.camel/a.txt"); }));
  EXPECT_FALSE(exists("in/a.txt"));
}

// The move comes after the exchange has left its route (here after a slow onCompletion): a
// stop that came meanwhile waits for it, so that a stopped context has committed every file
// it consumed (else a restart consumes it again).
TEST_F(FileConsumerTest, AStoppedContextHasMovedEveryFileItConsumed) {
  write("in/a.txt", "hello");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in"))
        .onCompletion()
        .process([](Exchange&) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); })
        .end()
        .to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  harness.context.stop();
  EXPECT_TRUE(exists("in/.camel/a.txt"));
  EXPECT_FALSE(exists("in/a.txt"));
}

TEST_F(FileConsumerTest, TheFileIsStillInPlaceWhileItsExchangeRuns) {
  write("in/a.txt", "x");
  std::atomic<bool> there{false};
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in")).process([&](Exchange&) { there = exists("in/a.txt"); }).to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(1);
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(there.load());
}

TEST_F(FileConsumerTest, CamelsFileHeadersAreSet) {
  write("in/sub/order.tar.gz", "12345");
  harness.start([&](RouteBuilder& b) { b.from(uri("in", "recursive=true")).to("mock:out"); });
  harness.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  const Message& m = harness.mock("mock:out").receivedExchanges().at(0)->message();
  EXPECT_EQ(m.getHeader("CamelFileName")->toString(), "sub/order.tar.gz");
  EXPECT_EQ(m.getHeader("CamelFileNameOnly")->toString(), "order.tar.gz");
  EXPECT_EQ(m.getHeader("CamelFileRelativePath")->toString(), "sub/order.tar.gz");
  EXPECT_EQ(m.getHeader("CamelFileParent")->toString(), dir + "/in/sub");
  EXPECT_EQ(m.getHeader("CamelFilePath")->toString(), dir + "/in/sub/order.tar.gz");
  EXPECT_EQ(m.getHeader("CamelFileAbsolutePath")->toString(), dir + "/in/sub/order.tar.gz");
  EXPECT_EQ(*m.getHeader("CamelFileLength"), Value(int64_t{5}));
  EXPECT_GT(m.getHeader("CamelFileLastModified")->as<int64_t>(), 0);
}

TEST_F(FileConsumerTest, SimplesFileFunctionsReadTheConsumedFile) {
  write("in/sub/order.tar.gz", "12345");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "recursive=true"))
        .setBody(simple("${file:name}|${file:onlyname}|${file:ext}|${file:name.ext.single}|"
                        "${file:name.noext}|${file:onlyname.noext.single}|${file:size}"))
        .to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived(
      {Value("sub/order.tar.gz|order.tar.gz|tar.gz|gz|sub/order|order.tar|5")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, NoopLeavesTheFileAndConsumesItOnce) {
  write("in/a.txt", "x");
  harness.start([&](RouteBuilder& b) { b.from(uri("in", "noop=true")).to("mock:out"); });
  harness.mock("mock:out").expectedMessageCount(1);
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // several polls
  EXPECT_EQ(harness.mock("mock:out").receivedExchanges().size(), 1u);
  EXPECT_TRUE(exists("in/a.txt"));
}

TEST_F(FileConsumerTest, DeleteRemovesTheFileAfterItsExchange) {
  write("in/a.txt", "x");
  harness.start([&](RouteBuilder& b) { b.from(uri("in", "delete=true")).to("mock:out"); });
  harness.mock("mock:out").expectedMessageCount(1);
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(eventually([&] { return !exists("in/a.txt"); }));
  EXPECT_FALSE(exists("in/.camel/a.txt"));
}

TEST_F(FileConsumerTest, MoveWithAnExpressionIsRelativeToTheStartingFolder) {
  write("in/a.txt", "x");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "move=done/${file:onlyname.noext}.bak")).to("mock:out");
  });
  EXPECT_TRUE(eventually([&] { return exists("in/done/a.bak"); }));
}

TEST_F(FileConsumerTest, AFailedExchangeMovesTheFileToMoveFailed) {
  write("in/bad.txt", "x");
  harness.start([&](RouteBuilder& b) {
    b.errorHandler(noErrorHandler());
    b.from(uri("in", "moveFailed=.error")).process([](Exchange&) {
      throw std::runtime_error("bad");
    });
  });
  EXPECT_TRUE(eventually([&] { return exists("in/.error/bad.txt"); }));
  EXPECT_FALSE(exists("in/bad.txt"));
  EXPECT_FALSE(exists("in/.camel/bad.txt"));
}

TEST_F(FileConsumerTest, AFailedExchangeWithoutMoveFailedLeavesTheFileToBeTriedAgain) {
  write("in/a.txt", "x");
  std::atomic<int> tries{0};
  harness.start([&](RouteBuilder& b) {
    b.errorHandler(noErrorHandler());
    b.from(uri("in")).process([&](Exchange&) {
      if (++tries < 3) throw std::runtime_error("not yet");
    });
  });
  EXPECT_TRUE(eventually([&] { return exists("in/.camel/a.txt"); }));
  EXPECT_EQ(tries.load(), 3);
}

TEST_F(FileConsumerTest, IncludeExcludeAndAntPatternsChooseTheFiles) {
  write("in/a.txt", "a");
  write("in/b.xml", "b");
  write("in/c.txt", "c");
  write("in/sub/d.txt", "d");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "recursive=true&noop=true&include=.*\\.txt&exclude=c.*"))
        .to("mock:regex");
    b.from(uri("in", "recursive=true&noop=true&antInclude=sub/**")).to("mock:ant");
    b.from(uri("in", "noop=true&includeExt=xml")).to("mock:ext");
  });
  harness.mock("mock:regex").expectedBodiesReceivedInAnyOrder({Value("a"), Value("d")});
  harness.mock("mock:ant").expectedBodiesReceived({Value("d")});
  harness.mock("mock:ext").expectedBodiesReceived({Value("b")});
  EXPECT_TRUE(harness.mock("mock:regex").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(harness.mock("mock:ant").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(harness.mock("mock:ext").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, HiddenFilesAndSubFoldersWithoutRecursiveAreLeftAlone) {
  write("in/.hidden", "h");
  write("in/sub/deep.txt", "d");
  write("in/top.txt", "t");
  harness.start([&](RouteBuilder& b) { b.from(uri("in", "noop=true")).to("mock:out"); });
  harness.mock("mock:out").expectedBodiesReceived({Value("t")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(harness.mock("mock:out").receivedExchanges().size(), 1u);
}

TEST_F(FileConsumerTest, MinAndMaxDepthBoundTheRecursion) {
  write("in/one.txt", "1");
  write("in/a/two.txt", "2");
  write("in/a/b/three.txt", "3");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "noop=true&recursive=true&minDepth=2&maxDepth=2")).to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("2")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, SortByOrdersAPollsFiles) {
  write("in/b.txt", "b");
  write("in/a.txt", "a");
  write("in/c.txt", "c");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "noop=true&sortBy=reverse:file:name")).to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("c"), Value("b"), Value("a")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, MaxMessagesPerPollSetsTheBatchProperties) {
  for (char c : std::string("abcde")) write(std::string("in/") + c + ".txt", std::string(1, c));
  harness.start([&](RouteBuilder& b) {
    b.from("file:" + dir + "/in?noop=true&maxMessagesPerPoll=2&initialDelay=0&delay=200")
        .setBody(simple("${exchangeProperty.CamelBatchIndex}/${exchangeProperty.CamelBatchSize}"))
        .to("mock:out");
  });
  harness.mock("mock:out").expectedMinimumMessageCount(2);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  auto got = harness.mock("mock:out").receivedExchanges();
  EXPECT_EQ(got.at(0)->message().body().toString(), "0/2");
  EXPECT_EQ(got.at(1)->message().body().toString(), "1/2");
}

TEST_F(FileConsumerTest, AFileStillGrowingIsNotPickedUpUnderReadLockChanged) {
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "readLock=changed&readLockCheckInterval=1000")).to("mock:out");
  });
  // Written in pieces, 100 ms apart: never still for 1 s until the last piece.
  std::string expected;
  for (int i = 0; i < 6; ++i) {
    {
      std::ofstream out(path("in/growing.csv"), std::ios::app);
      out << "line " << i << "\n";
    }
    expected += "line " + std::to_string(i) + "\n";
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(harness.mock("mock:out").receivedExchanges().empty()) << "picked up at piece " << i;
  }
  harness.mock("mock:out").expectedBodiesReceived({Value(expected)});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, AMarkerFileLockKeepsAFileFromASecondConsumer) {
  write("in/a.txt", "x");
  write("in/a.txt.camelLock", "");  // another consumer has it
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "readLock=markerFile&readLockDeleteOrphanLockFiles=false")).to("mock:out");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(harness.mock("mock:out").receivedExchanges().empty());
  std::filesystem::remove(path("in/a.txt.camelLock"));
  harness.mock("mock:out").expectedMessageCount(1);
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(eventually([&] { return !exists("in/a.txt.camelLock") && exists("in/.camel/a.txt"); }));
}

TEST_F(FileConsumerTest, AFileWaitsForItsDoneFileWhichGoesWithIt) {
  write("in/data.csv", "d");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "doneFileName=${file:name.noext}.done")).to("mock:out");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(harness.mock("mock:out").receivedExchanges().empty());
  write("in/data.done", "");
  harness.mock("mock:out").expectedBodiesReceived({Value("d")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(eventually([&] { return !exists("in/data.done"); }));
}

// As Camel's: after preMove the file is where preMove put it, so a folder-style move is
// beside it there.
TEST_F(FileConsumerTest, PreMoveMovesTheFileBeforeItsExchange) {
  write("in/a.txt", "x");
  std::atomic<bool> moved{false};
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "preMove=.inprogress&move=.done"))
        .process([&](Exchange&) { moved = exists("in/.inprogress/a.txt"); })
        .to("mock:out");
  });
  EXPECT_TRUE(eventually([&] { return exists("in/.inprogress/.done/a.txt"); }));
  EXPECT_TRUE(moved.load());
}

TEST_F(FileConsumerTest, AnIdempotentKeyKeepsARewrittenFileFromComingBack) {
  write("in/a.txt", "first");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "idempotent=true&idempotentKey=${file:onlyname}&move=.done/${file:name}.${exchangeId}"))
        .to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(1);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
  EXPECT_TRUE(eventually([&] { return !exists("in/a.txt"); }));
  write("in/a.txt", "second");  // the same key
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(harness.mock("mock:out").receivedExchanges().size(), 1u);
  EXPECT_TRUE(exists("in/a.txt"));
}

TEST_F(FileConsumerTest, FilterFileIsASimplePredicateOverTheFile) {
  write("in/small.txt", "1");
  write("in/large.txt", "1234567890");
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "noop=true&filterFile=${file:size} > 5")).to("mock:out");
  });
  harness.mock("mock:out").expectedBodiesReceived({Value("1234567890")});
  EXPECT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5)));
}

TEST_F(FileConsumerTest, TenThousandSmallFilesAreEachConsumedOnce) {
  constexpr int kFiles = 10000;
  std::filesystem::create_directories(path("in"));
  for (int i = 0; i < kFiles; ++i) {
    std::ofstream(path("in/f" + std::to_string(i) + ".txt")) << i;
  }
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "delete=true&maxMessagesPerPoll=0")).to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(kFiles);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(60)));
  std::set<std::string> bodies;
  for (const auto& ex : harness.mock("mock:out").receivedExchanges()) {
    bodies.insert(ex->message().body().toString());
  }
  EXPECT_EQ(bodies.size(), static_cast<size_t>(kFiles));
  EXPECT_TRUE(eventually([&] { return std::filesystem::is_empty(path("in")); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(harness.mock("mock:out").receivedExchanges().size(), static_cast<size_t>(kFiles));
}

// The files of one poll are fed one after another from a loop: a route that never waits
// completes each exchange before the next file is taken, and that completion must not take the
// next file from a deeper frame (a folder of 10,000 files overflowed the stack that way).
TEST_F(FileConsumerTest, TheFilesOfOnePollAreTakenAtTheSameStackDepth) {
  constexpr int kFiles = 300;
  std::filesystem::create_directories(path("in"));
  for (int i = 0; i < kFiles; ++i) {
    std::ofstream(path("in/f" + std::to_string(i) + ".txt")) << i;
  }
  std::mutex mutex;
  std::map<std::thread::id, std::pair<uintptr_t, uintptr_t>> depth;  // lowest, highest
  harness.start([&](RouteBuilder& b) {
    b.from(uri("in", "delete=true&maxMessagesPerPoll=0"))
        .process([&](Exchange&) {
          char here = 0;
          auto at = reinterpret_cast<uintptr_t>(&here);
          std::lock_guard lock(mutex);
          auto [it, first] = depth.try_emplace(std::this_thread::get_id(), at, at);
          it->second.first = std::min(it->second.first, at);
          it->second.second = std::max(it->second.second, at);
        })
        .to("mock:out");
  });
  harness.mock("mock:out").expectedMessageCount(kFiles);
  ASSERT_TRUE(harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(30)));
  std::lock_guard lock(mutex);
  for (const auto& [thread, range] : depth) {
    // Nested, each file took at least a few hundred bytes more than the one before.
    EXPECT_LT(range.second - range.first, 4096u) << "the stack grew from file to file";
  }
}

// Root reads every folder, so as root (CI) the scenario runs in a child process that has
// become `nobody`; it answers "" when everything held, or what did not.
template <class Scenario>
std::string asAnOrdinaryUser(const std::string& dir, Scenario scenario) {
  if (::geteuid() != 0) return scenario();
  ::chmod(dir.c_str(), 0755);
  pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(3);
    std::string failed = scenario();
    if (!failed.empty()) std::fprintf(stderr, "%s\n", failed.c_str());
    _exit(failed.empty() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status)) return "the child did not exit";
  return WEXITSTATUS(status) == 0 ? "" : "the child failed (see its stderr)";
}

TEST_F(FileConsumerTest, AnUnreadableFolderOrFileIsReportedNamingItAndTheRestIsConsumed) {
  write("in/ok.txt", "ok");
  write("in/locked/secret.txt", "s");
  write("in/unreadable.txt", "u");
  ::chmod(path("in").c_str(), 0755);
  ::chmod(path("in/ok.txt").c_str(), 0644);
  ::chmod(path("in/unreadable.txt").c_str(), 0);
  std::filesystem::permissions(path("in/locked"), std::filesystem::perms::none);
  // bridgeErrorHandler: the poll's failure goes to the route's error handler as an exchange.
  // The unreadable file fails its own exchange when its body is read.
  std::string failed = asAnOrdinaryUser(dir, [&]() -> std::string {
    harness.start([&](RouteBuilder& b) {
      b.errorHandler(deadLetterChannel("mock:errors"));
      b.from(uri("in", "recursive=true&noop=true&bridgeErrorHandler=true"))
          .convertBodyTo("String")
          .to("mock:out");
    });
    harness.mock("mock:out").expectedBodiesReceived({Value("ok")});
    if (!harness.mock("mock:out").assertIsSatisfied(std::chrono::seconds(5))) {
      return "ok.txt was not consumed";
    }
    auto& errors = harness.mock("mock:errors");
    for (const std::string& named : {path("in/locked"), path("in/unreadable.txt")}) {
      bool reported = eventually([&] {
        for (const auto& ex : errors.receivedExchanges()) {
          const Value* caught = ex->getProperty("CamelExceptionCaught");
          if (caught && caught->toString().find(named) != std::string::npos) return true;
        }
        return false;
      });
      if (!reported) return named + " was not reported";
    }
    harness.context.stop();
    return "";
  });
  std::filesystem::permissions(path("in/locked"), std::filesystem::perms::owner_all);
  EXPECT_EQ(failed, "");
}

TEST_F(FileConsumerTest, BadOptionsFailAtStartNamingThem) {
  struct Case {
    std::string options;
    std::string says;
  };
  for (const Case& c : {Case{"sortBy=file:colour", "sortBy: unknown key 'file:colour'"},
                        Case{"include=[a-", "include: '[a-' is not a valid regular expression"},
                        Case{"noop=true&delete=true", "noop and delete cannot both be true"},
                        Case{"idempotent=true&idempotentRepository=#nope",
                             "no repository is bound as 'nope'"},
                        Case{"move=${file:nope}", "unknown file function 'file:nope'"}}) {
    Context context;
    registerBuiltinComponents(context);
    ASSERT_TRUE(context.addRoutes([&](RouteBuilder& b) { b.from(uri("in", c.options)).to("mock:x"); }));
    auto started = context.start();
    ASSERT_FALSE(started) << c.options;
    EXPECT_THAT(started.error().message, ::testing::HasSubstr(c.says)) << c.options;
  }
}

TEST_F(FileConsumerTest, AMissingFolderIsCreatedOrRefusedWhenItMustExist) {
  harness.start([&](RouteBuilder& b) { b.from(uri("made")).to("mock:out"); });
  EXPECT_TRUE(std::filesystem::is_directory(path("made")));
  Context context;
  registerBuiltinComponents(context);
  ASSERT_TRUE(context.addRoutes([&](RouteBuilder& b) {
    b.from(uri("missing", "startingDirectoryMustExist=true")).to("mock:x");
  }));
  auto started = context.start();
  ASSERT_FALSE(started);
  EXPECT_THAT(started.error().message, ::testing::HasSubstr("does not exist"));
}

}  // namespace
}  // namespace dromedary::testing

// SPDX-License-Identifier: Apache-2.0
// Stream caching of http: replies over real sockets: a reply past spoolThreshold goes to a
// spool file that is the body (read again and again, deleted when released, the directory
// removed at stop), a smaller one stays in memory, disableStreamCache keeps any in memory,
// a spool directory that cannot be made fails the exchange naming it, and a 64 MB download
// raises the peak RSS by a few MB only.
#include <arpa/inet.h>
#include <dromedary/core/file_body.h>
#include <dromedary/engine/stream_caching.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "http_client_fixture.h"
#include "support/peak_memory.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

class HttpSpoolTest : public HttpClientFixture {
 protected:
  HttpSpoolTest() {
    dir = fs::temp_directory_path() / fmt::format("dromedary-spool-test-{}", ::getpid());
    fs::remove_all(dir);
  }
  ~HttpSpoolTest() override { fs::remove_all(dir); }

  void spoolAbove(int64_t threshold) {
    StreamCachingOptions o;
    o.spoolEnabled = true;
    o.spoolThreshold = threshold;
    o.spoolDirectory = (dir / "spool-#uuid#").string();
    ASSERT_TRUE(client.context.setStreamCaching(o));
  }
  void serveBodyOf(size_t bytes) {
    serve([bytes](RouteBuilder& b) {
      b.from("platform-http:/data").setBody(constant(std::string(bytes, 'x')));
    });
  }
  size_t filesIn(const fs::path& folder) {
    if (!fs::exists(folder)) return 0;
    size_t n = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      n += entry.is_regular_file() ? 1 : 0;
    }
    return n;
  }

  fs::path dir;
};

TEST_F(HttpSpoolTest, AReplyPastTheThresholdIsAFileReadAgainAndDeletedWhenReleased) {
  spoolAbove(1024);
  serveBodyOf(200'000);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data"));
  ASSERT_FALSE(ex->failed()) << ex->error().message();
  const FileBody* file = ex->message().body().getIf<FileBody>();
  ASSERT_NE(file, nullptr) << ex->message().body().typeName();
  EXPECT_TRUE(file->temporary());
  EXPECT_TRUE(file->path().starts_with(client.context.streamCaching().directory()));
  EXPECT_EQ(file->logText(), "[Body is instance of org.apache.camel.StreamCache]");
  EXPECT_EQ(ex->message().body().toString(), std::string(200'000, 'x'));
  EXPECT_EQ(ex->message().body().toString().size(), 200'000u);  // read again
  EXPECT_EQ(client.context.streamCaching().spooledCount(), 1u);
  EXPECT_EQ(client.context.streamCaching().spooledBytes(), 200'000u);
  std::string path = file->path();
  EXPECT_TRUE(fs::exists(path));
  ex.reset();
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(HttpSpoolTest, ACopyHandedToSedaSharesTheSpoolFileRatherThanReadingIt) {
  spoolAbove(1024);
  serveBodyOf(50'000);
  std::atomic<bool> shared{false};
  std::atomic<size_t> size{0};
  std::atomic<int> seen{0};
  std::string target = url("/data");
  client.start([&](RouteBuilder& b) {
    b.from("direct:get").to(target).to("seda:keep");
    b.from("seda:keep").process([&](Exchange& ex) {
      const FileBody* f = ex.message().body().getIf<FileBody>();
      shared = f && f->temporary();
      size = ex.message().body().toString().size();
      ++seen;
    });
  });
  (void)call("direct:get");
  for (int i = 0; i < 500 && seen == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(seen, 1);
  EXPECT_TRUE(shared);
  EXPECT_EQ(size, 50'000u);
  client.context.stop();
  EXPECT_EQ(filesIn(dir), 0u);
}

TEST_F(HttpSpoolTest, AReplyUnderTheThresholdStaysInMemory) {
  spoolAbove(1024);
  serveBodyOf(1024);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data"));
  ASSERT_FALSE(ex->failed()) << ex->error().message();
  EXPECT_TRUE(ex->message().body().isString());
  EXPECT_EQ(client.context.streamCaching().spooledCount(), 0u);
  EXPECT_EQ(filesIn(dir), 0u);
}

TEST_F(HttpSpoolTest, WithoutSpoolEnabledAsCamelsDefaultEveryReplyStaysInMemory) {
  serveBodyOf(1'000'000);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data"));
  EXPECT_TRUE(ex->message().body().isString());
  EXPECT_FALSE(client.context.streamCaching().spools());
}

TEST_F(HttpSpoolTest, DisableStreamCacheKeepsALargeReplyInMemory) {
  spoolAbove(1024);
  serveBodyOf(200'000);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data?disableStreamCache=true"));
  ASSERT_FALSE(ex->failed()) << ex->error().message();
  EXPECT_TRUE(ex->message().body().isString());
  EXPECT_EQ(ex->message().body().toString().size(), 200'000u);
}

TEST_F(HttpSpoolTest, AFailedReplyKeepsItsWholeBodyInTheException) {
  spoolAbove(1024);
  serve([](RouteBuilder& b) {
    b.from("platform-http:/bad")
        .setHeader("CamelHttpResponseCode", constant(int64_t{500}))
        .setBody(constant(std::string(5000, 'e')));
  });
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/bad"));
  ASSERT_TRUE(ex->failed());
  EXPECT_EQ(filesIn(dir), 0u);  // read back into the exception, the spool file deleted
}

TEST_F(HttpSpoolTest, TheSpoolDirectoryIsRemovedWhenTheContextStops) {
  client.context.properties().set("camel.main.streamCachingSpoolEnabled", "true");
  client.context.properties().set("camel.main.streamCachingSpoolThreshold", "100");
  client.context.properties().set("camel.main.streamCachingSpoolDirectory",
                                  (dir / "#camelId#").string());
  ASSERT_TRUE(client.context.applyMainProperties());
  EXPECT_EQ(client.context.streamCaching().directory(), (dir / client.context.name()).string());
  serveBodyOf(5000);
  client.start([](RouteBuilder&) {});
  {
    auto ex = call(url("/data"));
    ASSERT_NE(ex->message().body().getIf<FileBody>(), nullptr);
  }
  EXPECT_TRUE(fs::exists(client.context.streamCaching().directory()));
  client.context.stop();
  EXPECT_FALSE(fs::exists(client.context.streamCaching().directory()));
}

TEST_F(HttpSpoolTest, AtStopASpoolDirectoryHoldingOtherFilesKeepsThem) {
  spoolAbove(100);
  fs::path spool = client.context.streamCaching().directory();
  fs::create_directories(spool);
  std::ofstream(spool / "keep.txt") << "not a spool file";
  serveBodyOf(5000);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data"));
  ASSERT_NE(ex->message().body().getIf<FileBody>(), nullptr);
  client.context.stop();  // the exchange still holds its spool file: stop deletes it
  EXPECT_TRUE(fs::exists(spool / "keep.txt"));
  EXPECT_EQ(filesIn(spool), 1u);
}

TEST_F(HttpSpoolTest, BadStreamCachingPropertiesNameThePropertyAndValue) {
  client.context.properties().set("camel.main.streamCachingSpoolThreshold", "lots");
  auto r = client.context.applyMainProperties();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "camel.main.streamCachingSpoolThreshold must be a whole number, not 'lots'");
  client.context.properties().set("camel.main.streamCachingSpoolThreshold", "10");
  client.context.properties().set("camel.main.streamCachingSpoolEnabled", "yes");
  r = client.context.applyMainProperties();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "camel.main.streamCachingSpoolEnabled must be true or false, not 'yes'");
  client.context.properties().set("camel.main.streamCachingSpoolEnabled", "true");
  client.context.properties().set("camel.main.streamCachingBufferSize", "0");
  r = client.context.applyMainProperties();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "camel.main.streamCachingBufferSize must be above 0, not 0");
  client.context.properties().set("camel.main.streamCachingBufferSize", "4096");
  client.context.properties().set("camel.main.streamCachingSpoolDirectory", "");
  r = client.context.applyMainProperties();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "camel.main.streamCachingSpoolDirectory must name a directory, not ''");
}

TEST_F(HttpSpoolTest, ASpoolDirectoryThatCannotBeMadeFailsTheExchangeNamingIt) {
  fs::create_directories(dir);
  std::ofstream(dir / "plain-file") << "not a folder";
  StreamCachingOptions o;
  o.spoolEnabled = true;
  o.spoolThreshold = 10;
  o.spoolDirectory = (dir / "plain-file" / "spool").string();
  ASSERT_TRUE(client.context.setStreamCaching(o));
  serveBodyOf(5000);
  client.start([](RouteBuilder&) {});
  auto ex = call(url("/data"));
  ASSERT_TRUE(ex->failed());
  EXPECT_NE(ex->error().message().find("cannot make a spool file in '" + o.spoolDirectory + "'"),
            std::string::npos)
      << ex->error().message();
}

// A server that sends `bytes` of generated data in 64 KB writes, never holding it whole, so
// that the peak RSS measured is the client's.
class StreamingServer {
 public:
  explicit StreamingServer(uint64_t bytes) : bytes_(bytes) {
    // The descriptor by value: close() resets the listener's while the thread may read.
    thread_ = std::thread([this, fd = listener_.fd] { serveOne(fd); });
  }
  ~StreamingServer() {
    listener_.close();
    thread_.join();
  }
  uint16_t port() const { return listener_.port; }

 private:
  void serveOne(int fd) {
    int c = ::accept(fd, nullptr, nullptr);
    if (c < 0) return;
    readRequestHead(c);
    std::string head =
        fmt::format("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", bytes_);
    (void)!::write(c, head.data(), head.size());
    std::string chunk(65536, 'd');
    for (uint64_t left = bytes_; left > 0;) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(left, chunk.size()));
      ssize_t w = ::write(c, chunk.data(), n);
      if (w <= 0) break;
      left -= static_cast<uint64_t>(w);
    }
    ::close(c);
  }

  uint64_t bytes_;
  LoopbackListener listener_;
  std::thread thread_;
};

TEST_F(HttpSpoolTest, A64MbDownloadRaisesThePeakMemoryByAFewMbOnly) {
  constexpr uint64_t kBytes = 64ull << 20;
  spoolAbove(128 * 1024);
  client.start([](RouteBuilder&) {});
  StreamingServer server(kBytes);
  bool reset = resetPeakRss();
  long before = peakRssKb();
  auto ex = call(fmt::format("http://127.0.0.1:{}/big", server.port()));
  long after = peakRssKb();
  ASSERT_FALSE(ex->failed()) << ex->error().message();
  const FileBody* file = ex->message().body().getIf<FileBody>();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(fs::file_size(file->path()), kBytes);
  if (!reset) GTEST_SKIP() << "/proc/self/clear_refs cannot reset the peak RSS here";
  EXPECT_LT(after - before, 16 * 1024) << "peak RSS grew by " << (after - before) << " KB";
}

}  // namespace
}  // namespace dromedary::testing

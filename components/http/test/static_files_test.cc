// SPDX-License-Identifier: Apache-2.0
// Static files for platform-http (camel.server.staticEnabled): served from one folder for paths
// no route serves, with a Content-Type by extension, index.html for a folder, under
// staticContextPath; never a file outside the folder, however the path is written.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "platform_http_fixture.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

class StaticFilesTest : public PlatformHttpFixture {
 protected:
  StaticFilesTest() {
    base = fs::temp_directory_path() / fmt::format("dromedary-static-{}-{}", ::getpid(), ++n);
    fs::create_directories(base / "site" / "docs");
    std::ofstream(base / "site" / "index.html") << "<h1>home</h1>";
    std::ofstream(base / "site" / "app.js") << "let x = 1;";
    std::ofstream(base / "site" / "docs" / "index.html") << "docs";
    std::ofstream(base / "secret.txt") << "do not serve";
    fs::create_symlink(base / "secret.txt", base / "site" / "link.txt");
    h.context.properties().set("camel.server.staticEnabled", "true");
    h.context.properties().set("camel.server.staticSourceDir", (base / "site").string());
  }
  ~StaticFilesTest() override { fs::remove_all(base); }
  static inline int n = 0;
  fs::path base;
};

TEST_F(StaticFilesTest, AFileIsServedWithItsContentTypeAndAFolderWithItsIndex) {
  start([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hi")); });
  HttpReply js = get("/app.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.body, "let x = 1;");
  EXPECT_EQ(js.contentType, "text/javascript; charset=utf-8");
  EXPECT_EQ(get("/").body, "<h1>home</h1>");
  EXPECT_EQ(get("/docs/").body, "docs");
  EXPECT_EQ(get("/docs").body, "docs");
  EXPECT_EQ(get("/api/hello").body, "hi");  // routes first
  EXPECT_EQ(get("/missing.css").status, 404);
  EXPECT_EQ(httpRequest(port, "POST", "/app.js", HttpHeaders{}, "x").status, 404);
}

TEST_F(StaticFilesTest, NoPathLeavesTheFolder) {
  start([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hi")); });
  for (const char* path : {"/../secret.txt", "/%2e%2e/secret.txt", "/docs/../../secret.txt",
                           "/docs/%2E%2E/%2e%2e/secret.txt", "/link.txt", "/..%2fsecret.txt",
                           "/%00app.js", "/app.js%00", "//etc/passwd", "/%2fetc%2fpasswd"}) {
    HttpReply r = get(path);
    EXPECT_NE(r.status, 200) << path;
    EXPECT_EQ(r.body.find("do not serve"), std::string::npos) << path;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << path;
  }
}

TEST_F(StaticFilesTest, StaticContextPathPutsTheFilesUnderAPath) {
  h.context.properties().set("camel.server.staticContextPath", "/web");
  start([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hi")); });
  EXPECT_EQ(get("/web/app.js").body, "let x = 1;");
  EXPECT_EQ(get("/app.js").status, 404);
  EXPECT_EQ(get("/webapp.js").status, 404);
}

TEST_F(StaticFilesTest, AFileLargerThanMaxBodySizeIsRefusedNotRead) {
  h.context.properties().set("camel.server.maxBodySize", "4");
  start([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hi")); });
  HttpReply r = get("/app.js");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("/app.js is larger than camel.server.maxBodySize (4 bytes)"),
            std::string::npos)
      << r.body;
}

TEST_F(StaticFilesTest, TurnedOffNoFileIsServed) {
  h.context.properties().set("camel.server.staticEnabled", "false");
  start([](RouteBuilder& b) { b.from("platform-http:/api/hello").setBody(constant("hi")); });
  EXPECT_EQ(get("/app.js").status, 404);
  EXPECT_EQ(get("/").status, 404);
}

TEST_F(StaticFilesTest, ABadSettingFailsTheStartNamingTheProperty) {
  EXPECT_NE(startError([](RouteBuilder& b) { b.from("platform-http:/a").setBody(constant("a")); },
                       {"camel.server.staticEnabled", "maybe"})
                .find("camel.server.staticEnabled=maybe must be true or false"),
            std::string::npos);
  Context other;
  registerBuiltinComponents(other);
  other.properties().set("camel.server.host", "127.0.0.1");
  other.properties().set("camel.server.port", "0");
  other.properties().set("camel.server.staticEnabled", "true");
  other.properties().set("camel.server.staticSourceDir", (base / "nope").string());
  auto added = other.addRoutes([](RouteBuilder& b) { b.from("platform-http:/a").to("log:a"); });
  auto started = added ? other.start() : Result<void>(added.error());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("camel.server.staticSourceDir"), std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace dromedary::testing

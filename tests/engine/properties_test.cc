// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "support/route_harness.h"

namespace dromedary {
namespace {

using testing::RouteHarness;

TEST(PropertiesTest, ResolvesKeysDefaultsAndEnvironment) {
  Properties p;
  p.set("name", "orders");
  ::setenv("DROMEDARY_TEST_ENV", "from-env", 1);
  EXPECT_EQ(*p.resolve("direct:{{name}}"), "direct:orders");
  EXPECT_EQ(*p.resolve("{{missing:fallback}}"), "fallback");
  EXPECT_EQ(*p.resolve("{{env:DROMEDARY_TEST_ENV}}"), "from-env");
  EXPECT_EQ(*p.resolve("{{env:DROMEDARY_UNSET_VAR:dflt}}"), "dflt");
}

TEST(PropertiesTest, WithPrefixListsAFamilyOfKeysInOrder) {
  Properties p;
  p.set("a.map[y]", "2");
  p.set("a.map[x]", "{{one}}");
  p.set("a.other", "3");
  p.set("b", "4");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(p.withPrefix("a.map["), (Pairs{{"a.map[x]", "{{one}}"}, {"a.map[y]", "2"}}));
  EXPECT_EQ(p.withPrefix("z"), Pairs{});
}

TEST(PropertiesTest, OptionalPlaceholdersAreEmptyWhenAbsent) {
  Properties p;
  p.set("set", "yes");
  EXPECT_EQ(*p.resolve("[{{?nope}}]"), "[]");
  EXPECT_EQ(*p.resolve("[{{?set}}]"), "[yes]");
  EXPECT_EQ(*p.resolve("[{{?nope:fallback}}]"), "[fallback]");
  EXPECT_EQ(*p.resolve("[{{?env:DROMEDARY_TEST_UNSET_VARIABLE}}]"), "[]");
}

TEST(PropertiesTest, SysReadsTheProcessesSystemProperties) {
  Properties p;
  const char* home = std::getenv("HOME");
  std::string saved = home ? home : "";
  ::setenv("HOME", "/home/camel", 1);
  EXPECT_EQ(*p.resolve("{{sys:user.home}}"), "/home/camel");
  if (home) ::setenv("HOME", saved.c_str(), 1); else ::unsetenv("HOME");
  EXPECT_EQ(*p.resolve("{{sys:no.such.thing:dflt}}"), "dflt");
  EXPECT_FALSE(p.resolve("{{sys:no.such.thing}}"));
}

TEST(PropertiesTest, AnOptionWhoseValueIsAnAbsentOptionalPlaceholderIsDropped) {
  Properties p;
  p.set("size", "5");
  EXPECT_EQ(p.withoutAbsentOptionalOptions("seda:a?timeout={{?t}}&size={{?size}}&block={{?b}}"),
            "seda:a?size={{?size}}");
  EXPECT_EQ(p.withoutAbsentOptionalOptions("seda:a?timeout={{?t:9}}"), "seda:a?timeout={{?t:9}}");
  EXPECT_EQ(p.withoutAbsentOptionalOptions("seda:a"), "seda:a");
}

TEST(PropertiesTest, ResolvesNestedPlaceholders) {
  Properties p;
  p.set("host", "localhost");
  p.set("url", "http://{{host}}:8080");
  EXPECT_EQ(*p.resolve("to {{url}}"), "to http://localhost:8080");
}

TEST(PropertiesTest, MissingKeyIsAClearError) {
  Properties p;
  auto r = p.resolve("direct:{{queue}}");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::UnknownProperty);
  EXPECT_EQ(r.error().message,
            "property placeholder '{{queue}}' in 'direct:{{queue}}': no property 'queue' is "
            "defined (give a default as '{{queue:default}}')");
}

TEST(PropertiesTest, MissingEnvironmentVariableIsAClearError) {
  Properties p;
  auto r = p.resolve("{{env:DROMEDARY_SURELY_UNSET}}");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "property placeholder '{{env:DROMEDARY_SURELY_UNSET}}' in "
            "'{{env:DROMEDARY_SURELY_UNSET}}': environment variable 'DROMEDARY_SURELY_UNSET' is "
            "not set (give a default as '{{env:DROMEDARY_SURELY_UNSET:default}}')");
}

TEST(PropertiesTest, UnterminatedPlaceholderIsAnError) {
  Properties p;
  auto r = p.resolve("direct:{{name");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "unterminated property placeholder in 'direct:{{name': expected '}}' after "
            "'{{name'");
}

TEST(PropertiesTest, CycleIsAnError) {
  Properties p;
  p.set("a", "{{b}}");
  p.set("b", "{{a}}");
  auto r = p.resolve("{{a}}");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "circular property reference: a -> b -> a");
}

TEST(PropertiesTest, LoadsAPropertiesFile) {
  std::string path = ::testing::TempDir() + "/dromedary_test.properties";
  {
    std::ofstream out(path);
    out << "# comment\n! also a comment\nqueue = orders\nhost: example.org\n"
        << "long = first \\\n   second\nescaped=tab\\there\n";
  }
  Properties p;
  ASSERT_TRUE(p.load(path));
  EXPECT_EQ(*p.get("queue"), "orders");
  EXPECT_EQ(*p.get("host"), "example.org");
  EXPECT_EQ(*p.get("long"), "first second");
  EXPECT_EQ(*p.get("escaped"), "tab\there");
}

TEST(PropertiesTest, APinnedKeyKeepsItsValueThroughLaterSetsAndLoads) {
  std::string path = ::testing::TempDir() + "/dromedary_pinned.properties";
  std::ofstream(path) << "queue = from-file\nhost = file-host\n";
  Properties p;
  p.pin("queue", "from-command-line");
  p.set("queue", "set-later");
  ASSERT_TRUE(p.load(path));
  EXPECT_EQ(*p.get("queue"), "from-command-line");
  EXPECT_EQ(*p.get("host"), "file-host");  // not pinned: the file's
  // A pinned file's keys win over a later file's; pinning again replaces the value.
  Properties q;
  ASSERT_TRUE(q.loadPinned(path));
  q.set("host", "other");
  EXPECT_EQ(*q.get("host"), "file-host");
  q.pin("host", "command-line-host");
  EXPECT_EQ(*q.get("host"), "command-line-host");
}

TEST(PropertiesTest, MissingFileIsAnError) {
  Properties p;
  auto r = p.load("/nonexistent/app.properties");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "cannot read properties file '/nonexistent/app.properties': No such file or "
            "directory");
}

TEST(PropertiesTest, PlaceholdersInRoutesResolveAtStart) {
  RouteHarness h;
  h.context.properties().set("in", "direct:in");
  h.context.properties().set("greeting", "hello");
  h.start([](RouteBuilder& b) {
    b.from("{{in}}").setBody(constant("{{greeting}}")).to("mock:{{out:result}}");
  });
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  auto& mock = h.mock("mock:result");
  mock.expectedBodiesReceived({"hello"});
  EXPECT_TRUE(mock.assertIsSatisfied());
}

TEST(PropertiesTest, MissingPlaceholderInARouteFailsStartWithRouteAndStep) {
  RouteHarness h;
  ASSERT_TRUE(h.context.addRoutes(
      [](RouteBuilder& b) { b.from("direct:a").routeId("r").to("mock:{{nowhere}}"); }));
  auto started = h.context.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().message,
            "property placeholder '{{nowhere}}' in 'mock:{{nowhere}}': no property 'nowhere' is "
            "defined (give a default as '{{nowhere:default}}') (in route 'r', step "
            "to[mock:{{nowhere}}])");
}

}  // namespace
}  // namespace dromedary

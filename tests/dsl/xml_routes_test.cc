// SPDX-License-Identifier: Apache-2.0
// Camel's XML DSL and Spring XML's <camelContext>, and the load errors word for word.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>

#include <dromedary/dsl/route_loader.h>

#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

class XmlRoutesTest : public RouteFileTest {
 protected:
  LoadReport load(const char* xml) { return loadXml(xml); }
  std::string error(const char* xml) { return xmlError(xml); }
};

TEST_F(XmlRoutesTest, LoneRouteElement) {
  load(R"(<route id="one"><from uri="direct:in"/><log message="hi ${body}"/>
          <setBody><simple>${body}!</simple></setBody><to uri="mock:out"/></route>)");
  h.mock("mock:out").expectedBodiesReceived({Value("a!")});
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_TRUE(h.mock("mock:out").assertIsSatisfied());
}

TEST_F(XmlRoutesTest, SpringCamelContextInsideBeansSkipsOtherBeans) {
  LoadReport report = load(R"(<?xml version="1.0"?>
<beans xmlns="http://www.springframework.org/schema/beans">
  <bean id="connectionFactory" class="org.apache.activemq.ActiveMQConnectionFactory"/>
  <camelContext xmlns="http://camel.apache.org/schema/spring">
    <route id="echo">
      <from uri="direct:echo"/>
      <setHeader name="handled"><constant>true</constant></setHeader>
      <to uri="mock:echo"/>
    </route>
  </camelContext>
</beans>
)");
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0],
            "ignored <bean id=\"connectionFactory\"> at routes.xml:3:3 (not a route element)");
  h.mock("mock:echo").expectedHeaderReceived("handled", Value("true"));
  ASSERT_TRUE(h.producer.sendBody("direct:echo", "x"));
  EXPECT_TRUE(h.mock("mock:echo").assertIsSatisfied());
}

// Spring's way to split routes over files: <routeContext id> in one file's <beans>, taken
// in by a <routeContextRef ref> of another file's <camelContext>.
class SpringRouteContextTest : public XmlRoutesTest {
 protected:
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                              ("route-context-" + std::to_string(::getpid()));
  void write(const std::string& name, const std::string& text) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir / name) << text;
  }
  ~SpringRouteContextTest() override { std::filesystem::remove_all(dir); }
};

TEST_F(SpringRouteContextTest, ARouteContextRefTakesInTheRoutesOfAnotherFilesRouteContext) {
  write("a-context.xml", R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <camelContext xmlns="http://camel.apache.org/schema/spring">
    <routeContextRef ref="orders"/>
    <route id="main"><from uri="direct:main"/><to uri="direct:order"/></route>
  </camelContext>
</beans>)");
  write("b-routes.xml", R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <routeContext id="orders" xmlns="http://camel.apache.org/schema/spring">
    <route id="order"><from uri="direct:order"/><to uri="mock:orders"/></route>
  </routeContext>
  <routeContext id="unused" xmlns="http://camel.apache.org/schema/spring">
    <route id="spare"><from uri="direct:spare"/><to uri="mock:spare"/></route>
  </routeContext>
</beans>)");
  auto loaded = loadRoutes(h.context, {dir.string()});
  ASSERT_TRUE(loaded) << loaded.error().toString();
  EXPECT_EQ(loaded->routes, 2u);  // main and order; not spare
  bool noted = false;
  for (const std::string& note : loaded->notes) {
    noted = noted || note.find("routeContext 'unused' at ") != std::string::npos;
  }
  EXPECT_TRUE(noted);
  ASSERT_TRUE(h.context.start());
  ASSERT_TRUE(h.producer.sendBody("direct:main", "o-1"));
  EXPECT_EQ(h.mock("mock:orders").receivedExchanges().size(), 1u);
}

TEST_F(SpringRouteContextTest, ARefToNoRouteContextFailsAtTheRefListingThoseThereAre) {
  write("context.xml", R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <routeContext id="orders" xmlns="http://camel.apache.org/schema/spring">
    <route><from uri="direct:order"/><to uri="mock:orders"/></route>
  </routeContext>
  <camelContext xmlns="http://camel.apache.org/schema/spring">
    <routeContextRef ref="order"/>
  </camelContext>
</beans>)");
  auto loaded = loadRoutes(h.context, {dir.string()});
  ASSERT_FALSE(loaded);
  EXPECT_THAT(loaded.error().toString(), ::testing::HasSubstr("no <routeContext id=\"order\">"));
  EXPECT_THAT(loaded.error().toString(), ::testing::HasSubstr("context.xml:6:22"));
  EXPECT_THAT(loaded.error().toString(), ::testing::HasSubstr("there are: orders"));
}

TEST_F(XmlRoutesTest, ARouteContextTakenInTwiceOrWithoutItsIdIsAnErrorAtItsPlace) {
  EXPECT_THAT(error(R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <routeContext id="orders"><route><from uri="direct:a"/><to uri="mock:a"/></route></routeContext>
  <camelContext>
    <routeContextRef ref="orders"/>
    <routeContextRef ref="orders"/>
  </camelContext>
</beans>)"),
              ::testing::AllOf(::testing::HasSubstr("routeContext 'orders' is referenced twice"),
                               ::testing::HasSubstr("routes.xml:5:22")));
  EXPECT_THAT(error(R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <routeContext><route><from uri="direct:a"/><to uri="mock:a"/></route></routeContext>
</beans>)"),
              ::testing::HasSubstr("<routeContext> needs 'id' at routes.xml:2:3"));
  EXPECT_THAT(error(R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <camelContext><routeContextRef/></camelContext>
</beans>)"),
              ::testing::HasSubstr("<routeContextRef> needs 'ref' at routes.xml:2:17"));
}

TEST_F(SpringRouteContextTest, SpringPlaceholdersInBeansReadThePropertyPlaceholdersFile) {
  std::string url;
  h.context.addBeanFactory("com.acme.Pool", [&](Context&, const Context::BeanDefinition& b)
                                                -> Result<void> {
    url = *b.property("url");
    return {};
  });
  write("config.properties", "db.host=db.example\n");
  write("beans.xml", R"(<beans xmlns="http://www.springframework.org/schema/beans"
       xmlns:context="http://www.springframework.org/schema/context">
  <context:property-placeholder location="classpath:config.properties, classpath:absent.properties"/>
  <bean id="pool" class="com.acme.Pool">
    <property name="url" value="jdbc:postgresql://${db.host}:${db.port:5432}/app"/>
  </bean>
</beans>)");
  auto loaded = loadRoutes(h.context, {dir.string()});
  ASSERT_TRUE(loaded) << loaded.error().toString();
  EXPECT_EQ(url, "jdbc:postgresql://db.example:5432/app");
  bool noted = false;
  for (const std::string& note : loaded->notes) {
    noted = noted || note.find("property-placeholder location 'classpath:absent.properties' "
                               "at ") != std::string::npos;
  }
  EXPECT_TRUE(noted);
}

TEST_F(XmlRoutesTest, ASpringFileOfBeansAloneIsReadWithoutRoutes) {
  LoadReport report = load(R"(<beans xmlns="http://www.springframework.org/schema/beans">
  <bean id="orderService" class="com.acme.OrderService"/>
</beans>)");
  EXPECT_EQ(report.routes, 0u);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_THAT(report.notes[0], ::testing::HasSubstr("ignored <bean id=\"orderService\">"));
}

TEST_F(XmlRoutesTest, NamespacePrefixesAreAccepted) {
  load(R"(<camel:routes xmlns:camel="http://camel.apache.org/schema/spring">
  <camel:route><camel:from uri="direct:in"/><camel:to uri="mock:out"/></camel:route>
</camel:routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "a"));
  EXPECT_EQ(h.mock("mock:out").receivedExchanges().size(), 1u);
}

TEST_F(XmlRoutesTest, UnknownElementSuggestsTheClosest) {
  EXPECT_EQ(error(R"(<routes>
  <route>
    <from uri="direct:a"/>
    <setheader name="x"><constant>y</constant></setheader>
  </route>
</routes>)"),
            "unknown step 'setheader' at routes.xml:4:5; did you mean 'setHeader'?");
}

TEST_F(XmlRoutesTest, UnknownAttribute) {
  EXPECT_EQ(error(R"(<routes>
  <route>
    <from uri="direct:a"/>
    <setHeader nam="x"><constant>y</constant></setHeader>
  </route>
</routes>)"),
            "unknown key 'nam' in setHeader at routes.xml:4:16; did you mean 'name'?");
}

// The document is parsed in place: decoding an entity in one attribute's value shortens it
// where it stands, and the next attribute is still placed where the file has it.
TEST_F(XmlRoutesTest, AttributeAfterAnEntityIsPlacedWhereTheFileHasIt) {
  EXPECT_EQ(error(R"(<routes>
  <route>
    <from uri="direct:a?x=1&amp;y=2"/>
    <setHeader id="a&lt;b&gt;c" nam="x"><constant>y</constant></setHeader>
  </route>
</routes>)"),
            "unknown key 'nam' in setHeader at routes.xml:4:33; did you mean 'name'?");
}

TEST_F(XmlRoutesTest, MissingAttribute) {
  EXPECT_EQ(error(R"(<routes><route><from uri="direct:a"/><to/></route></routes>)"),
            "to needs 'uri' at routes.xml:1:38");
}

TEST_F(XmlRoutesTest, PatternOnToHoldsForThatSendOnly) {
  load(R"(<routes>
  <route><from uri="direct:in"/><to uri="direct:probe" pattern="InOut"/><to uri="mock:after"/></route>
  <route><from uri="direct:probe"/><to uri="mock:inside"/></route>
</routes>)");
  ASSERT_TRUE(h.producer.sendBody("direct:in", "x"));
  ASSERT_EQ(h.mock("mock:inside").receivedExchanges().size(), 1u);
  ASSERT_EQ(h.mock("mock:after").receivedExchanges().size(), 1u);
  EXPECT_EQ(h.mock("mock:inside").receivedExchanges()[0]->pattern(), Pattern::InOut);
  EXPECT_EQ(h.mock("mock:after").receivedExchanges()[0]->pattern(), Pattern::InOnly);
}

TEST_F(XmlRoutesTest, AnUnknownPatternOnToIsAnError) {
  EXPECT_EQ(error(R"(<route><from uri="direct:a"/><to uri="mock:b" pattern="InOptionalOut"/></route>)"),
            "unknown exchange pattern 'InOptionalOut' on to at routes.xml:1:47; expected InOnly "
            "or InOut");
}

TEST_F(XmlRoutesTest, RouteWithoutFrom) {
  EXPECT_EQ(error("<routes>\n  <route id=\"x\">\n    <to uri=\"mock:a\"/>\n  </route>\n</routes>"),
            "a route starts with <from> at routes.xml:3:5");
}

TEST_F(XmlRoutesTest, MalformedXmlNamesThePosition) {
  EXPECT_EQ(error("<routes>\n  <route>\n    <from uri=\"direct:a\">\n  </route>\n</routes>"),
            "invalid XML: Start-end tags mismatch at routes.xml:4:5");
}

TEST_F(XmlRoutesTest, UnknownRootElement) {
  EXPECT_EQ(error("<camels/>"),
            "unknown root element <camels> at routes.xml:1:1; expected <routes>, <route>, "
            "<routeConfiguration>, <routeTemplates>, <templatedRoutes>, <rests>, <camel>, "
            "<camelContext> "
            "or Spring's <beans>");
}

}  // namespace
}  // namespace dromedary::testing

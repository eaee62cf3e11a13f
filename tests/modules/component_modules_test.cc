// SPDX-License-Identifier: Apache-2.0
// Component modules (src/modules/component_modules.h): registrations kept aside, each module's
// declaration against what its component registers, and the errors of a module that cannot
// be used. Loading real modules is the dromedary program's (tests/cli/cli_modules_test.sh):
// they link to the core the program exports.
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <dromedary/dromedary.h>

#include "component_modules.h"

namespace dromedary::modules {
namespace test {
std::span<const std::pair<std::string_view, void (*)(Context&)>> moduleRegistrations();
}  // namespace test

namespace {

using ::testing::HasSubstr;

class NamedComponent final : public Component {
 public:
  explicit NamedComponent(std::string scheme) : scheme_(std::move(scheme)) {}
  std::string_view scheme() const override { return scheme_; }
  std::span<const OptionSpec> endpointOptions() const override { return {}; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri&, EndpointOptions) override {
    return makeError(ErrorCode::Internal, "not for sending");
  }

 private:
  std::string scheme_;
};

void registerSome(Context& context) {
  context.addComponent(std::make_unique<NamedComponent>("kept"));
  context.addBeanFactory("com.acme.Kept", [](Context&, const Context::BeanDefinition&) {
    return Result<void>();
  });
  (void)context.registerExceptionType("com.acme.Failure", "std::runtime_error", nullptr);
}

TEST(CollectRegistrationsTest, ComponentsAndBeanFactoriesAreKeptAsideAttachedToTheContext) {
  Context context;
  Context::Registrations kept = context.collectRegistrations(&registerSome);
  ASSERT_EQ(kept.components.size(), 1u);
  EXPECT_EQ(kept.components[0]->scheme(), "kept");
  EXPECT_EQ(&kept.components[0]->context(), &context);
  ASSERT_EQ(kept.beanFactories.size(), 1u);
  EXPECT_EQ(kept.beanFactories[0].first, "com.acme.Kept");
  EXPECT_EQ(context.component("kept"), nullptr);
  EXPECT_EQ(context.beanFactory("com.acme.Kept"), nullptr);
}

TEST(CollectRegistrationsTest, ExceptionTypesGoToTheContextAsUsual) {
  Context context;
  (void)context.collectRegistrations(&registerSome);
  // Registered already: a second registration is refused.
  EXPECT_FALSE(context.registerExceptionType("com.acme.Failure", "std::runtime_error", nullptr));
}

TEST(CollectRegistrationsTest, RegistrationsAfterwardsGoToTheContext) {
  Context context;
  (void)context.collectRegistrations(&registerSome);
  context.addComponent(std::make_unique<NamedComponent>("later"));
  EXPECT_NE(context.component("later"), nullptr);
}

TEST(CollectRegistrationsTest, AnotherContextsRegistrationsAreNotKept) {
  Context context;
  static Context* other = nullptr;
  Context second;
  other = &second;
  Context::Registrations kept = context.collectRegistrations([](Context&) {
    other->addComponent(std::make_unique<NamedComponent>("elsewhere"));
  });
  EXPECT_TRUE(kept.components.empty());
  EXPECT_NE(second.component("elsewhere"), nullptr);
}

// Each module's CMake declaration names exactly what its component registers: a scheme or
// bean type left out would be unknown to the program, one too many an error when used.
TEST(ComponentModulesTest, EachModuleDeclaresWhatItsComponentRegisters) {
  ASSERT_FALSE(builtinModules().empty());
  for (const ComponentModuleSpec& spec : builtinModules()) {
    SCOPED_TRACE(std::string(spec.name));
    void (*register_fn)(Context&) = nullptr;
    for (const auto& [name, fn] : test::moduleRegistrations()) {
      if (name == spec.name) register_fn = fn;
    }
    ASSERT_NE(register_fn, nullptr);
    Context context;
    Context::Registrations kept = context.collectRegistrations(register_fn);
    std::set<std::string> schemes, declared_schemes, beans, declared_beans;
    for (const auto& c : kept.components) schemes.emplace(c->scheme());
    for (const auto& [type, factory] : kept.beanFactories) beans.insert(type);
    for (std::string_view s : spec.schemes) declared_schemes.emplace(s);
    for (std::string_view b : spec.beanTypes) declared_beans.emplace(b);
    EXPECT_EQ(schemes, declared_schemes);
    EXPECT_EQ(beans, declared_beans);
  }
}

TEST(ComponentModulesTest, StandInsAreListedBeforeTheModuleLoads) {
  Context context;
  for (const ComponentModuleSpec& spec : builtinModules()) addComponentModule(context, spec);
  std::vector<std::string> schemes = context.componentSchemes();
  for (const ComponentModuleSpec& spec : builtinModules()) {
    for (std::string_view s : spec.schemes) {
      EXPECT_NE(std::find(schemes.begin(), schemes.end(), s), schemes.end()) << s;
    }
  }
}

constexpr std::string_view kMissingSchemes[] = {"nosuch"};
constexpr std::string_view kMissingBeans[] = {"com.acme.NoSuchBean"};
constexpr ComponentModuleSpec kMissing{"nosuch", kMissingSchemes, kMissingBeans};

TEST(ComponentModulesTest, AMissingModuleFailsTheEndpointNamingItAndWhereItWasLookedFor) {
  setenv("DROMEDARY_MODULE_PATH", "/nonexistent/one:/nonexistent/two", 1);
  Context context;
  addComponentModule(context, kMissing);
  auto endpoint = context.endpoint("nosuch:x?any=option");
  unsetenv("DROMEDARY_MODULE_PATH");
  ASSERT_FALSE(endpoint);
  EXPECT_THAT(endpoint.error().message,
              HasSubstr("the module dromedary-nosuch.so is in none of the module folders "
                        "(/nonexistent/one, /nonexistent/two, "));
  EXPECT_THAT(endpoint.error().message, HasSubstr("DROMEDARY_MODULE_PATH"));
}

TEST(ComponentModulesTest, AMissingModuleFailsItsBeanTypesToo) {
  Context context;
  addComponentModule(context, kMissing);
  const Context::BeanFactory* factory = context.beanFactory("com.acme.NoSuchBean");
  ASSERT_NE(factory, nullptr);
  auto made = (*factory)(context, Context::BeanDefinition{"b", "com.acme.NoSuchBean", {}});
  ASSERT_FALSE(made);
  EXPECT_THAT(made.error().message, HasSubstr("dromedary-nosuch.so"));
}

TEST(ComponentModulesTest, LoadModuleOfSaysWhyAModuleDidNotLoad) {
  Context context;
  addComponentModule(context, kMissing);
  auto loaded = loadModuleOf(*context.component("nosuch"));
  ASSERT_FALSE(loaded);
  EXPECT_THAT(loaded.error().message, HasSubstr("dromedary-nosuch.so"));
  NamedComponent ordinary("plain");
  EXPECT_TRUE(loadModuleOf(ordinary));
}

// A module built by another build (tests/modules/other_build_module.cc, built as
// dromedary-otherbuild.so beside this test) is refused before it registers anything.
constexpr std::string_view kOtherSchemes[] = {"otherbuild"};
constexpr ComponentModuleSpec kOther{"otherbuild", kOtherSchemes, {}};

TEST(ComponentModulesTest, AModuleOfAnotherBuildIsRefusedNamingBothBuilds) {
  setenv("DROMEDARY_MODULE_PATH", DROMEDARY_TEST_MODULE_DIR, 1);
  Context context;
  addComponentModule(context, kOther);
  auto endpoint = context.endpoint("otherbuild:x");
  unsetenv("DROMEDARY_MODULE_PATH");
  ASSERT_FALSE(endpoint);
  EXPECT_THAT(endpoint.error().message, HasSubstr("comes from another build (another build) "
                                                  "than this program"));
}

}  // namespace
}  // namespace dromedary::modules

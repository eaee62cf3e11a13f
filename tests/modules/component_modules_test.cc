// SPDX-License-Identifier: Apache-2.0
// Component modules (src/modules/component_modules.h): registrations kept aside, each module's
// declaration against what its component registers, and the errors of a module that cannot
// be used. Loading real modules is the dromedary program's (tests/cli/cli_modules_test.sh):
// they link to the core the program exports.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

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

// A file of the module's name that is not a loadable object, and a shared library without a
// module's entry points, are refused saying so.
class BrokenModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("dromedary-broken-modules-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder_);
    setenv("DROMEDARY_MODULE_PATH", folder_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("DROMEDARY_MODULE_PATH");
    std::filesystem::remove_all(folder_);
  }
  // Why an endpoint of the module `name`'s one scheme, `name`, could not be made.
  static std::string endpointError(const std::string& name) {
    const std::string_view schemes[] = {name};
    const ComponentModuleSpec spec{name, schemes, {}};  // outlives the context that uses it
    Context context;
    addComponentModule(context, spec);
    auto made = context.endpoint(name + ":x");
    return made ? std::string() : made.error().message;
  }
  std::filesystem::path folder_;
};

TEST_F(BrokenModuleTest, AFileThatIsNotALoadableObjectIsRefused) {
  std::ofstream(folder_ / "dromedary-garbled.so") << "not an ELF object";
  EXPECT_THAT(endpointError("garbled"),
              HasSubstr("component 'garbled': the module dromedary-garbled.so could not be "
                        "loaded: "));
}

TEST_F(BrokenModuleTest, ASharedLibraryWithoutAModulesEntryPointsIsRefused) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&::dlopen), &info), 0);  // libc's (or libdl's) file
  std::filesystem::create_symlink(info.dli_fname, folder_ / "dromedary-plain.so");
  EXPECT_THAT(endpointError("plain"), HasSubstr("dromedary-plain.so) is not a module"));
}

// A module of this build (tests/modules/fake_module.cc, dromedary-fake.so beside this test,
// which exports the core as the program does): loaded on first use, once, however many
// threads need it at once; its component makes the endpoints, with its own options.
constexpr std::string_view kFakeSchemes[] = {"fake"};
constexpr std::string_view kFakeBeans[] = {"com.acme.Fake"};
constexpr ComponentModuleSpec kFake{"fake", kFakeSchemes, kFakeBeans};

int fakeModuleRegistrations() {
  void* handle = dlopen(DROMEDARY_TEST_MODULE_DIR "/dromedary-fake.so", RTLD_NOW | RTLD_NOLOAD);
  if (!handle) return 0;  // not loaded
  auto count = reinterpret_cast<int (*)()>(dlsym(handle, "fake_module_registrations"));
  int n = count ? count() : -1;
  dlclose(handle);  // the reference RTLD_NOLOAD took
  return n;
}

class FakeModuleTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("DROMEDARY_MODULE_PATH", DROMEDARY_TEST_MODULE_DIR, 1); }
  void TearDown() override { unsetenv("DROMEDARY_MODULE_PATH"); }
};

TEST_F(FakeModuleTest, ItsComponentMakesTheEndpointsWithItsOwnOptions) {
  Context context;
  addComponentModule(context, kFake);
  auto made = context.endpoint("fake:a?size=3");
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().message, "made by the fake module: fake:a?size=3 size 3");
  auto bad = context.endpoint("fake:a?sise=3");
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("unknown option 'sise'"));
  EXPECT_EQ(context.component("fake")->endpointOptions().size(), 1u);
}

TEST_F(FakeModuleTest, ItsBeanTypesAreTheModulesFactories) {
  Context context;
  addComponentModule(context, kFake);
  auto made = (*context.beanFactory("com.acme.Fake"))(
      context, Context::BeanDefinition{"b", "com.acme.Fake", {}});
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().message, "fake bean b");
}

// A declaration that names a scheme or bean type its module does not register (the CMake
// lists out of step with the code) fails the use, naming the module and what it lacks.
constexpr std::string_view kWrongSchemes[] = {"fake", "missing"};
constexpr std::string_view kWrongBeans[] = {"com.acme.Missing"};
constexpr ComponentModuleSpec kWrong{"fake", kWrongSchemes, kWrongBeans};

TEST_F(FakeModuleTest, ASchemeOrBeanTypeItsModuleDoesNotRegisterFailsNamingBoth) {
  Context context;
  addComponentModule(context, kWrong);
  auto made = context.endpoint("missing:x");
  ASSERT_FALSE(made);
  EXPECT_THAT(made.error().message,
              HasSubstr("the module dromedary-fake.so registers no component 'missing'"));
  auto bean = (*context.beanFactory("com.acme.Missing"))(
      context, Context::BeanDefinition{"b", "com.acme.Missing", {}});
  ASSERT_FALSE(bean);
  EXPECT_THAT(bean.error().message,
              HasSubstr("the module dromedary-fake.so registers no bean type 'com.acme.Missing'"));
}

TEST_F(FakeModuleTest, ManyThreadsUsingItFirstAtOnceRegisterItOncePerContext) {
  const int before = fakeModuleRegistrations();
  Context context;
  addComponentModule(context, kFake);
  std::vector<std::thread> threads;
  std::atomic<int> delegated{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      auto made = context.endpoint("fake:t" + std::to_string(t));
      if (!made && made.error().message.starts_with("made by the fake module")) ++delegated;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(delegated.load(), 8);
  EXPECT_EQ(fakeModuleRegistrations(), before + 1);
}

}  // namespace
}  // namespace dromedary::modules

package io.overseer.support;

import io.overseer.launcher.RealmUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by Debian's chromedriver, for the console's browser tests. Both
 * executables are named explicitly, so Selenium Manager never looks for (or downloads) a browser or a
 * driver; without them the test fails saying which packages to install. Each page a test visits can be
 * saved under target/screenshots/ (1280 wide), where the docs' images come from.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** How long a page may take to show what the test waits for: a few of the console's 2 s polls, and the work. */
    public static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    /**
     * Quiets Selenium's warning that Debian's Chromium is newer than the DevTools protocols it bundles: the
     * tests speak WebDriver only, never DevTools. Held here, as java.util.logging keeps loggers weakly.
     */
    private static final Logger DEVTOOLS = quiet(Logger.getLogger("org.openqa.selenium.devtools"));

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final String name;

    private Browser(String name, ChromeDriverService service, ChromeDriver driver) {
        this.name = name;
        this.service = service;
        this.driver = driver;
    }

    /** A fresh browser (no storage shared with another); {@code name} prefixes its screenshots. */
    public static Browser open(String name) {
        requireInstalled();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                        "--disable-gpu", "--no-first-run", "--disable-extensions", "--lang=en-US");
        try {
            return new Browser(name, service, new ChromeDriver(service, options));
        } catch (RuntimeException e) {
            service.stop();
            throw e;
        }
    }

    private static Logger quiet(Logger logger) {
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    /** Fails naming the Debian packages when either executable is missing. */
    public static void requireInstalled() {
        List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(CHROMIUM)) {
            missing.add(CHROMIUM + " (package chromium)");
        }
        if (!Files.isExecutable(CHROMEDRIVER)) {
            missing.add(CHROMEDRIVER + " (package chromium-driver)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("The console's browser tests drive Debian's Chromium and never download"
                    + " one; missing: " + String.join(", ", missing)
                    + ". Install them with: apt-get install -y chromium chromium-driver (.ci/run does when missing)");
        }
    }

    public ChromeDriver driver() {
        return driver;
    }

    public void go(String url) {
        driver.get(url);
    }

    /** Opens the console and signs in through its form, waiting until the page names the user. */
    public void signIn(URI console, RealmUser user) {
        go(console.toString());
        await(By.id("login-user")).sendKeys(user.name());
        driver.findElement(By.id("login-password")).sendKeys(user.password());
        driver.findElement(By.id("login-submit")).click();
        awaitText(By.id("who-name"), user.name());
    }

    /** The element once it is visible. */
    public WebElement await(By by) {
        return waiting().until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Picks the option of a select by its value, once the select offers it. */
    public void choose(By select, String value) {
        waiting().until(ExpectedConditions.presenceOfNestedElementLocatedBy(select, By.cssSelector("option[value='" + value + "']")));
        new Select(driver.findElement(select)).selectByValue(value);
    }

    /** Waits until the element's text contains {@code text}; fails with what it showed last. */
    public WebElement awaitText(By by, String text) {
        try {
            waiting().until(ExpectedConditions.textToBePresentInElementLocated(by, text));
        } catch (TimeoutException e) {
            throw new AssertionError("Waited " + WAIT + " for " + by + " to show '" + text + "'; it shows '"
                    + textOf(by) + "'", e);
        }
        return driver.findElement(by);
    }

    /** Waits until nothing matches {@code by} any more. */
    public void awaitGone(By by) {
        waiting().until(ExpectedConditions.numberOfElementsToBe(by, 0));
    }

    public String textOf(By by) {
        List<WebElement> found = driver.findElements(by);
        return found.isEmpty() ? "(nothing matches)" : found.get(0).getText();
    }

    public List<WebElement> all(By by) {
        return driver.findElements(by);
    }

    public Object script(String javaScript) {
        return ((JavascriptExecutor) driver).executeScript(javaScript);
    }

    /** Opens an action's reason dialog with its button, gives the reason, confirms. */
    public void act(By button, String reason) {
        await(button).click();
        WebElement field = await(By.id("action-reason"));
        field.sendKeys(reason);
        driver.findElement(By.id("action-submit")).click();
    }

    /** Saves what the window shows as target/screenshots/{name}-{page}.png. */
    public Path screenshot(String page) {
        try {
            Path file = Files.createDirectories(SCREENSHOTS).resolve(name + "-" + page + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private WebDriverWait waiting() {
        WebDriverWait wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(100));
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        return wait;
    }

    /** Ends Chromium and its driver: the driver's process and the browser's, whatever the test did. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}

/*
 * UTouch QML module: GestureArea with synthesized touches, offscreen.
 *
 * Each test loads a small scene (import UTouch) into a QQuickView, sends
 * touch sequences with QTest::touchEvent, and checks what the area and a
 * raw-touch item below (TouchLog) received.  Run with
 * QT_QPA_PLATFORM=offscreen, QML_NO_TOUCH_COMPRESSION=1 and the build's
 * import path (tests/qml/meson.build).
 */
#include <QElapsedTimer>
#include <QPointer>
#include <QQmlContext>
#include <QQmlEngine>
#include <QQuickItem>
#include <QQuickView>
#include <QtTest>
#include <cmath>

/* A raw-touch item: logs every point it gets and accepts them. */
class TouchLog : public QQuickItem
{
	Q_OBJECT
public:
	struct Entry {
		int id;
		QEventPoint::State state;
		QPointF pos;
		qint64 at; /* ms since the test's clock started */
	};
	explicit TouchLog(QQuickItem *parent = nullptr) : QQuickItem(parent)
	{
		setAcceptTouchEvents(true);
	}
	QList<Entry> entries;
	static QElapsedTimer clock;

protected:
	void touchEvent(QTouchEvent *ev) override
	{
		for (const QEventPoint &p : ev->points())
			if (p.state() != QEventPoint::State::Stationary)
				entries.append(Entry{p.id(), p.state(), p.position(), clock.elapsed()});
		ev->accept();
	}
};
QElapsedTimer TouchLog::clock;

/* What one signal carried. */
struct Seen {
	QString sig;   /* began, updated, ended */
	QString sub;   /* objectName of the subscription */
	int id;
	QList<int> touches;
	QList<QPointF> points;
	QPointF centroid, translation, velocity;
	qreal scale, rotation;
	bool cf, canceled;
	int recognized, decision;
	qint64 at;
};

class Recorder : public QObject
{
	Q_OBJECT
public:
	QList<Seen> seen;
	QHash<int, QPointer<QObject>> gestures;
	QString autoDecide; /* "accept", "reject" or "" on began */

public Q_SLOTS:
	void began(QObject *g) { note(QStringLiteral("began"), g); }
	void updated(QObject *g) { note(QStringLiteral("updated"), g); }
	void ended(QObject *g) { note(QStringLiteral("ended"), g); }

private:
	void note(const QString &sig, QObject *g)
	{
		Seen s;
		s.sig = sig;
		s.sub = g->property("subscription").value<QObject *>()->objectName();
		s.id = g->property("id").toInt();
		s.touches = g->property("touches").value<QList<int>>();
		s.points = g->property("points").value<QList<QPointF>>();
		s.centroid = g->property("centroid").toPointF();
		s.translation = g->property("translation").toPointF();
		s.velocity = g->property("velocity").toPointF();
		s.scale = g->property("scale").toReal();
		s.rotation = g->property("rotation").toReal();
		s.cf = g->property("constructionFinished").toBool();
		s.canceled = g->property("canceled").toBool();
		s.recognized = g->property("recognized").toInt();
		s.decision = g->property("decision").toInt();
		s.at = TouchLog::clock.elapsed();
		seen.append(s);
		gestures.insert(s.id, g);
		if (sig == QLatin1String("began") && !autoDecide.isEmpty())
			QMetaObject::invokeMethod(g, autoDecide.toLatin1().constData());
	}
};

class TestGestureArea : public QObject
{
	Q_OBJECT

	QPointingDevice *m_dev = nullptr;
	QQuickView *m_view = nullptr;
	Recorder *m_rec = nullptr;

	/*
	 * A TouchLog below an area with the subscriptions @p subs whose signals
	 * go to the recorder, and @p extra items above it; returns the area.
	 */
	QQuickItem *load(const QByteArray &subs, const QString &extra = QString())
	{
		return loadScene("import UTouchTest\n"
				 "Item { width: 600; height: 400\n"
				 "  TouchLog { objectName: 'log'; x: 20; y: 10; width: 580; height: 390 }\n"
				 "  GestureArea { objectName: 'area'; anchors.fill: parent\n"
				 "    onGestureBegan: (g) => recorder.began(g)\n"
				 "    onGestureUpdated: (g) => recorder.updated(g)\n"
				 "    onGestureEnded: (g) => recorder.ended(g)\n" +
				 subs + "\n  }\n" + extra.toUtf8() + "}\n");
	}
	/*
	 * Load a whole scene (imports added), with `recorder` in its context;
	 * returns the item named "area".
	 */
	QQuickItem *loadScene(const QByteArray &body)
	{
		delete m_view;
		delete m_rec;
		m_rec = new Recorder;
		m_view = new QQuickView;
		m_view->engine()->addImportPath(qEnvironmentVariable("UTOUCH_QML_IMPORT_PATH"));
		m_view->rootContext()->setContextProperty(QStringLiteral("recorder"), m_rec);
		QTemporaryFile f(QDir::tempPath() + QStringLiteral("/utouch-qml-XXXXXX.qml"));
		f.setAutoRemove(false);
		if (!f.open())
			return nullptr;
		f.write("import QtQuick\nimport UTouch\n" + body);
		f.close();
		m_view->setSource(QUrl::fromLocalFile(f.fileName()));
		QFile::remove(f.fileName());
		if (m_view->status() != QQuickView::Ready) {
			for (const auto &e : m_view->errors())
				qWarning() << e.toString();
			return nullptr;
		}
		m_view->show();
		if (!QTest::qWaitForWindowExposed(m_view))
			return nullptr;
		return m_view->rootObject()->findChild<QQuickItem *>(QStringLiteral("area"));
	}
	/* The root item's property @p name as an int. */
	int rootInt(const char *name) const { return m_view->rootObject()->property(name).toInt(); }
	/*
	 * A one-touch drag subscription whose gestures the application accepts,
	 * on an area above a DragHandler (with @p permissions) on their parent
	 * that counts its activations in dragActive; then touch 0 pressed at
	 * (150, 150) and moved 120, 80 px in ten steps, far past the handler's
	 * threshold.  Returns the area.
	 */
	QQuickItem *dragAboveDragHandler(const QByteArray &permissions)
	{
		QQuickItem *area = loadScene(
			"Item { width: 600; height: 400\n"
			"  property int dragActive: 0\n"
			"  DragHandler { target: null; " + permissions + "\n"
			"    onActiveChanged: if (active) dragActive++ }\n"
			"  GestureArea { objectName: 'area'; anchors.fill: parent\n"
			"    onGestureBegan: (g) => { recorder.began(g); g.accept() }\n"
			"    onGestureEnded: (g) => recorder.ended(g)\n"
			"    Subscription { gestures: Gesture.Drag; touches: 1 }\n"
			"  }\n"
			"}\n");
		if (!area)
			return nullptr;
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(150, 150));
		for (int i = 1; i <= 10; i++)
			QTest::touchEvent(m_view, m_dev).move(0, QPoint(150 + 12 * i, 150 + 8 * i));
		return area;
	}
	/* Load examples/qml/NAME offscreen; returns its root item. */
	QQuickItem *loadExample(const QString &name)
	{
		delete m_view;
		m_view = new QQuickView;
		m_view->engine()->addImportPath(qEnvironmentVariable("UTOUCH_QML_IMPORT_PATH"));
		m_view->setSource(QUrl::fromLocalFile(qEnvironmentVariable("UTOUCH_SOURCE_ROOT") +
						      QStringLiteral("/examples/qml/") + name));
		if (m_view->status() != QQuickView::Ready) {
			for (const auto &e : m_view->errors())
				qWarning() << e.toString();
			return nullptr;
		}
		m_view->show();
		if (!QTest::qWaitForWindowExposed(m_view))
			return nullptr;
		return m_view->rootObject();
	}
	TouchLog *log() const
	{
		return m_view->rootObject()->findChild<TouchLog *>(QStringLiteral("log"));
	}
	QList<Seen> of(const QString &sig) const
	{
		QList<Seen> r;
		for (const Seen &s : m_rec->seen)
			if (s.sig == sig)
				r.append(s);
		return r;
	}
	const Seen *last(int id) const
	{
		for (int i = m_rec->seen.size() - 1; i >= 0; i--)
			if (m_rec->seen[i].id == id)
				return &m_rec->seen[i];
		return nullptr;
	}
	/* Four touches at @p x0 on row @p y, moved by @p dx in @p steps moves (not released). */
	void fourTouch(const qreal (&x0)[4], const qreal (&dx)[4], int y, int steps)
	{
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(int(x0[0]), y)).press(1, QPoint(int(x0[1]), y))
			.press(2, QPoint(int(x0[2]), y)).press(3, QPoint(int(x0[3]), y));
		for (int i = 1; i <= steps; i++) {
			auto seq = QTest::touchEvent(m_view, m_dev);
			for (int t = 0; t < 4; t++)
				seq.move(t, QPointF(x0[t] + dx[t] * i / steps, y).toPoint());
		}
	}
	/* Two touches from a0/b0 to a1/b1 in @p steps moves, then released. */
	void twoTouch(QPointF a0, QPointF b0, std::function<QPointF(int, int)> pos, int steps,
		      bool release = true, int waitMs = 0)
	{
		QTest::touchEvent(m_view, m_dev).press(0, a0.toPoint()).press(1, b0.toPoint());
		for (int i = 1; i <= steps; i++) {
			if (waitMs)
				QTest::qWait(waitMs);
			QTest::touchEvent(m_view, m_dev).move(0, pos(0, i).toPoint()).move(1, pos(1, i).toPoint());
		}
		if (release)
			QTest::touchEvent(m_view, m_dev).release(0, pos(0, steps).toPoint())
				.release(1, pos(1, steps).toPoint());
	}

	/*
	 * A one-finger drag of ten (10, 6) steps, @p stepMs apart, through an
	 * area that rejects it, above a box with a DragHandler: the replay
	 * moves the box by the finger's travel, once.  With a step time the
	 * area decides before the finger lifts.
	 */
	void rejectedDragMovesBoxOnce(int stepMs)
	{
		QQuickItem *area = loadScene(
			"Item { width: 600; height: 400\n"
			"  Rectangle { objectName: 'box'; x: 50; y: 50; width: 300; height: 300\n"
			"    DragHandler { } }\n"
			"  GestureArea { objectName: 'area'; anchors.fill: parent\n"
			"    onGestureBegan: (g) => { recorder.began(g); g.reject() }\n"
			"    Subscription { gestures: Gesture.Drag; touches: 1 }\n"
			"  }\n"
			"}\n");
		QVERIFY(area);
		QQuickItem *box = m_view->rootObject()->findChild<QQuickItem *>(QStringLiteral("box"));
		QVERIFY(box);
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(100, 100));
		for (int i = 1; i <= 10; i++) {
			if (stepMs > 0)
				QTest::qWait(stepMs);
			QTest::touchEvent(m_view, m_dev).move(0, QPoint(100 + 10 * i, 100 + 6 * i));
		}
		if (stepMs > 0)
			QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(200, 160));
		QTRY_COMPARE_WITH_TIMEOUT(box->position(), QPointF(150, 110), 2000);
		QTest::qWait(50);
		QCOMPARE(box->position(), QPointF(150, 110));
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(area->property("heldTouches").toInt(), 0);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
	}

private Q_SLOTS:
	void initTestCase()
	{
		qmlRegisterType<TouchLog>("UTouchTest", 1, 0, "TouchLog");
		m_dev = QTest::createTouchDevice();
		TouchLog::clock.start();
	}
	void cleanupTestCase()
	{
		/* QTest never frees the devices it creates */
		delete m_dev;
		m_dev = nullptr;
	}
	void cleanup()
	{
		delete m_view;
		m_view = nullptr;
		delete m_rec;
		m_rec = nullptr;
	}

	void drag()
	{
		QQuickItem *area = load("Subscription { objectName: 'dpr'; gestures: Gesture.Drag | "
					"Gesture.Pinch | Gesture.Rotate; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		/* 60, 40 px in 6 steps */
		twoTouch({100, 100}, {200, 100}, [](int t, int i) {
			return QPointF(100 + 100 * t + 10 * i, 100 + 20.0 * i / 3);
		}, 6, false, 5);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(area->property("claimedTouches").toInt(), 2);
		const Seen *u = last(of(QStringLiteral("began"))[0].id);
		QCOMPARE(u->sub, QStringLiteral("dpr"));
		QCOMPARE(u->touches, (QList<int>{0, 1}));
		QVERIFY(u->recognized & 1);
		QVERIFY(qAbs(u->translation.x() - 60) < 0.01);
		QVERIFY(qAbs(u->translation.y() - 40) < 1.0); /* points are whole pixels */
		QVERIFY(qAbs(u->scale - 1) < 0.01);
		QVERIFY(qAbs(u->rotation) < 0.5);
		QCOMPARE(u->points[0], QPointF(160, 140));
		QCOMPARE(u->points[1], QPointF(260, 140));
		QVERIFY(qAbs(u->centroid.x() - 210) < 0.01);
		QVERIFY(qAbs(u->centroid.y() - 140) < 0.01);
		QVERIFY(u->velocity.x() > 0 && u->velocity.y() > 0);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(160, 140)).release(1, QPoint(260, 140));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended"))[0].canceled, false);
		QCOMPARE(of(QStringLiteral("ended"))[0].touches, (QList<int>{0, 1}));
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(log()->entries.size(), 0); /* claimed touches never reach the item below */
	}

	/* Hiding the area cancels its gestures: ended with canceled set, no touch left. */
	void hiddenCancels()
	{
		QQuickItem *area = load("Subscription { objectName: 'd'; gestures: Gesture.Drag; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		twoTouch({100, 100}, {200, 100}, [](int t, int i) {
			return QPointF(100 + 100 * t + 10 * i, 100);
		}, 3, false);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		area->setVisible(false);
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended"))[0].canceled, true);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(area->property("heldTouches").toInt(), 0);
	}

	/* A value grail refuses leaves the subscription inactive and says why. */
	void subscriptionErrors()
	{
		QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("touches: invalid value")));
		QQuickItem *area = load("Subscription { objectName: 's'; gestures: Gesture.Drag; touches: 6 }");
		QVERIFY(area);
		QObject *sub = area->findChild<QObject *>(QStringLiteral("s"));
		QVERIFY(sub);
		QCOMPARE(sub->property("error").toString(), QStringLiteral("touches: invalid value"));
		QCOMPARE(sub->property("dragTimeout").toInt(), 300);
		QVERIFY(qAbs(sub->property("dragThreshold").toReal() - 0.0026 * 96 / 0.0254) < 0.01);
		/* inactive: a drag is not recognized, its touches go below */
		twoTouch({100, 100}, {200, 100}, [](int t, int i) {
			return QPointF(100 + 100 * t + 10 * i, 100);
		}, 3);
		QCOMPARE(of(QStringLiteral("began")).size(), 0);
		QCOMPARE(log()->entries.size(), 2 * 5);
		QVERIFY(sub->setProperty("touches", 2));
		QCOMPARE(sub->property("error").toString(), QString());
		twoTouch({100, 100}, {200, 100}, [](int t, int i) {
			return QPointF(100 + 100 * t + 10 * i, 100);
		}, 3);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
	}

	void pinch()
	{
		QQuickItem *area = load("Subscription { objectName: 'p'; gestures: Gesture.Pinch | "
					"Gesture.Rotate | Gesture.Drag; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		/* 100 px apart to 200 px apart around (200, 150) */
		twoTouch({150, 150}, {250, 150}, [](int t, int i) {
			return QPointF(t ? 250 + 10 * i : 150 - 10 * i, 150);
		}, 5, false);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		const Seen *u = last(of(QStringLiteral("began"))[0].id);
		QVERIFY(u->recognized & 2);
		QVERIFY2(qAbs(u->scale - 2) < 0.001, qPrintable(QString::number(u->scale)));
		QVERIFY(qAbs(u->rotation) < 0.01);
		QVERIFY(qAbs(u->translation.x()) < 0.01 && qAbs(u->translation.y()) < 0.01);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(100, 150)).release(1, QPoint(300, 150));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
	}

	void rotate()
	{
		QQuickItem *area = load("Subscription { objectName: 'r'; gestures: Gesture.Pinch | "
					"Gesture.Rotate | Gesture.Drag; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		/* a quarter turn, clockwise on screen (y down), radius 100 around (300, 200) */
		twoTouch({200, 200}, {400, 200}, [](int t, int i) {
			qreal a = M_PI / 2 * i / 6 + (t ? 0 : M_PI);
			return QPointF(300 + 100 * std::cos(a), 200 + 100 * std::sin(a));
		}, 6, false);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		const Seen *u = last(of(QStringLiteral("began"))[0].id);
		QVERIFY(u->recognized & 4);
		QVERIFY2(qAbs(u->rotation - 90) < 0.5, qPrintable(QString::number(u->rotation)));
		QVERIFY(qAbs(u->scale - 1) < 0.01);
		QCOMPARE(u->points[0], QPointF(300, 100));
		QCOMPARE(u->points[1], QPointF(300, 300));
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(300, 100)).release(1, QPoint(300, 300));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
	}

	/* Four touches A B C D; A-B and C-D pinch in: grail proposes AB, CD, AD, BC. */
	void bugGame()
	{
		QQuickItem *area = load("Subscription { objectName: 'pinch'; gestures: Gesture.Pinch; "
					"touches: 2 }");
		QVERIFY(area);
		const qreal x0[4] = {120, 240, 360, 480}, dx[4] = {40, -40, 40, -40};
		fourTouch(x0, dx, 200, 4);
		QList<Seen> began = of(QStringLiteral("began"));
		QSet<QList<int>> pairs;
		QHash<QList<int>, int> ids;
		for (const Seen &s : began) {
			QList<int> t = s.touches;
			std::sort(t.begin(), t.end());
			pairs.insert(t);
			ids.insert(t, s.id);
		}
		QCOMPARE(began.size(), 4);
		QCOMPARE(pairs, (QSet<QList<int>>{{0, 1}, {2, 3}, {0, 3}, {1, 2}}));
		QCOMPARE(of(QStringLiteral("ended")).size(), 0);
		/* the game: the gestures whose centroid hits a bug */
		QVERIFY(QMetaObject::invokeMethod(m_rec->gestures.value(ids[{0, 1}]), "accept"));
		QVERIFY(QMetaObject::invokeMethod(m_rec->gestures.value(ids[{2, 3}]), "accept"));
		QList<Seen> ended = of(QStringLiteral("ended"));
		QCOMPARE(ended.size(), 2);
		QSet<int> endedIds{ended[0].id, ended[1].id};
		QCOMPARE(endedIds, (QSet<int>{ids[{0, 3}], ids[{1, 2}]}));
		QVERIFY(ended[0].canceled && ended[1].canceled);
		QCOMPARE(area->property("claimedTouches").toInt(), 4);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(160, 200)).release(1, QPoint(200, 200))
			.release(2, QPoint(400, 200)).release(3, QPoint(440, 200));
		ended = of(QStringLiteral("ended"));
		QCOMPARE(ended.size(), 4);
		QCOMPARE(last(ids[{0, 1}])->canceled, false);
		QCOMPARE(last(ids[{0, 1}])->decision, 1);
		QVERIFY(qAbs(last(ids[{0, 1}])->scale - 40.0 / 120) < 0.001);
		QCOMPARE(last(ids[{2, 3}])->canceled, false);
		QCOMPARE(log()->entries.size(), 0);
	}

	/* A rejected gesture's touches reach the raw-touch item below, in order. */
	void rejectedReplay()
	{
		QQuickItem *area = load("Subscription { objectName: 'drag'; gestures: Gesture.Drag; "
					"touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("reject");
		twoTouch({100, 100}, {200, 100}, [](int t, int i) {
			return QPointF(100 + 100 * t + 10 * i, 100 + 5 * i);
		}, 5);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended")).size(), 0); /* no End after a reject */
		const QList<TouchLog::Entry> &e = log()->entries;
		/* TouchLog is at (20, 10): positions in its coordinates */
		QCOMPARE(e.size(), 2 * 7);
		for (int i = 0; i <= 6; i++) {
			for (int t = 0; t < 2; t++) {
				const TouchLog::Entry &x = e[2 * i + t];
				const int step = qMin(i, 5);
				QCOMPARE(x.id, t);
				QCOMPARE(x.state, i == 0 ? QEventPoint::State::Pressed
						: i == 6 ? QEventPoint::State::Released
							 : QEventPoint::State::Updated);
				QCOMPARE(x.pos, QPointF(100 + 100 * t + 10 * step - 20, 100 + 5 * step - 10));
			}
		}
		QCOMPARE(area->property("heldTouches").toInt(), 0);
	}

	/*
	 * A DragHandler below the area (on its parent) does not take the touch
	 * of a drag the application accepted, however far it moves; the drag
	 * ends when the finger lifts and no touch stays claimed.
	 */
	void keepsGrabFromDragHandler()
	{
		QQuickItem *area = dragAboveDragHandler(QByteArray());
		QVERIFY(area);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(area->property("claimedTouches").toInt(), 1);
		QCOMPARE(rootInt("dragActive"), 0);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(270, 230));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended"))[0].canceled, false);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(rootInt("dragActive"), 0);
	}

	/* The same with a PinchHandler on an item below the area. */
	void keepsGrabFromPinchHandler()
	{
		QQuickItem *area = loadScene(
			"Item { width: 600; height: 400\n"
			"  property int pinchActive: 0\n"
			"  Item { anchors.fill: parent\n"
			"    PinchHandler { target: null; onActiveChanged: if (active) pinchActive++ } }\n"
			"  GestureArea { objectName: 'area'; anchors.fill: parent\n"
			"    onGestureBegan: (g) => { recorder.began(g); g.accept() }\n"
			"    onGestureEnded: (g) => recorder.ended(g)\n"
			"    Subscription { gestures: Gesture.Pinch; touches: 2 }\n"
			"  }\n"
			"}\n");
		QVERIFY(area);
		twoTouch({200, 200}, {300, 200}, [](int t, int i) {
			return QPointF(t ? 300 + 10 * i : 200 - 10 * i, 200);
		}, 10, false);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(rootInt("pinchActive"), 0);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(100, 200)).release(1, QPoint(400, 200));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(rootInt("pinchActive"), 0);
	}

	/*
	 * Even a handler that may take touches from anything (grabPermissions:
	 * CanTakeOverFromAnything) leaves a held touch alone; when the area
	 * loses the grab anyway (here: ungrabTouchPoints(), as when an item
	 * takes the points), it is told: the gesture the application saw ends
	 * cancelled and no touch stays claimed.
	 */
	void lostGrabEndsGestures()
	{
		QQuickItem *area = dragAboveDragHandler("grabPermissions: PointerHandler.CanTakeOverFromAnything");
		QVERIFY(area);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		QCOMPARE(rootInt("dragActive"), 0);
		QCOMPARE(area->property("claimedTouches").toInt(), 1);
		QCOMPARE(of(QStringLiteral("ended")).size(), 0);
		area->ungrabTouchPoints();
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended"))[0].canceled, true);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(area->property("heldTouches").toInt(), 0);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(270, 230));
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
	}

	/*
	 * A one-finger tap through a pinch-only area reaches a TapHandler and
	 * a MouseArea below (through Qt's own delivery, mouse synthesis
	 * included), once each.
	 */
	void replayReachesHandlersAndMouseAreas()
	{
		QQuickItem *area = loadScene(
			"Item { width: 600; height: 400\n"
			"  property int taps: 0\n"
			"  property int clicks: 0\n"
			"  property point clickedAt\n"
			"  Item { width: 300; height: 400; TapHandler { onTapped: taps++ } }\n"
			"  MouseArea { x: 300; width: 300; height: 400\n"
			"    onClicked: (m) => { clicks++; clickedAt = Qt.point(m.x, m.y) } }\n"
			"  GestureArea { objectName: 'area'; anchors.fill: parent\n"
			"    onGestureBegan: (g) => recorder.began(g)\n"
			"    Subscription { gestures: Gesture.Pinch; touches: 2 }\n"
			"  }\n"
			"}\n");
		QVERIFY(area);
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(100, 100));
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(100, 100));
		QTRY_COMPARE_WITH_TIMEOUT(rootInt("taps"), 1, 2000);
		QTest::qWait(100);
		QCOMPARE(rootInt("taps"), 1);
		QCOMPARE(rootInt("clicks"), 0);
		QTest::touchEvent(m_view, m_dev).press(1, QPoint(450, 120));
		QTest::touchEvent(m_view, m_dev).release(1, QPoint(450, 120));
		QTRY_COMPARE_WITH_TIMEOUT(rootInt("clicks"), 1, 2000);
		QTest::qWait(100);
		QCOMPARE(rootInt("clicks"), 1);
		QCOMPARE(rootInt("taps"), 1);
		QCOMPARE(m_view->rootObject()->property("clickedAt").toPointF(), QPointF(150, 120));
		QCOMPARE(of(QStringLiteral("began")).size(), 0);
		QCOMPARE(area->property("heldTouches").toInt(), 0);
	}

	/*
	 * A rejected one-finger drag reaches a DragHandler below through the
	 * replay, once: the box it drags moves by the finger's travel (100, 60),
	 * not twice that, though the handler also watched the real touch.
	 */
	void replayReachesDragHandler() { rejectedDragMovesBoxOnce(0); }

	/*
	 * The same drag, rejected while the finger is still down (the moves
	 * come 8 ms apart, the decision falls between them): the DragHandler
	 * that watched the real touch stops watching it and follows the
	 * replay alone, so the box moves by the finger's travel once.
	 */
	void replayWhileDownReachesDragHandlerOnce() { rejectedDragMovesBoxOnce(8); }

	/* Subscription.gestures is a flags type whose values are Gesture's classes. */
	void gesturesIsFlags()
	{
		QQuickItem *area = load("Subscription { objectName: 's'; gestures: Gesture.Pinch | Gesture.Hold; touches: 2 }");
		QVERIFY(area);
		QObject *sub = area->findChild<QObject *>(QStringLiteral("s"));
		QVERIFY(sub);
		const QMetaProperty p = sub->metaObject()->property(sub->metaObject()->indexOfProperty("gestures"));
		QVERIFY(p.isFlagType());
		QCOMPARE(QByteArray(p.enumerator().name()), QByteArray("Classes"));
		QCOMPARE(QByteArray(p.enumerator().key(1)), QByteArray("Pinch"));
		QCOMPARE(p.read(sub).toInt(), 0x2 | 0x20);
	}

	/*
	 * A touchpad pinch (native gesture events, as PinchHandler takes them)
	 * is a pinch of the area's two-touch subscription: ten zoom steps of
	 * 0.1 scale it by 1.1^10, nine rotate steps of 10 degrees turn it 90
	 * degrees clockwise; End ends it and nothing stays claimed.
	 */
	void touchpadPinch()
	{
		QQuickItem *area = load("Subscription { objectName: 'p'; gestures: Gesture.Pinch | Gesture.Rotate; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		QPointingDevice pad(QStringLiteral("test touchpad"), 4711, QInputDevice::DeviceType::TouchPad,
				    QPointingDevice::PointerType::Finger, QInputDevice::Capability::Position, 5, 0);
		quint64 t = 100000;
		auto send = [&](Qt::NativeGestureType type, qreal value) {
			const QPointF at(300, 200);
			QNativeGestureEvent ev(type, &pad, 2, at, at, m_view->mapToGlobal(at), value, QPointF());
			ev.setTimestamp(t += 16);
			QCoreApplication::sendEvent(m_view, &ev);
		};
		send(Qt::BeginNativeGesture, 0);
		for (int i = 0; i < 10; i++)
			send(Qt::ZoomNativeGesture, 0.1);
		for (int i = 0; i < 9; i++)
			send(Qt::RotateNativeGesture, 10);
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		const Seen *u = last(of(QStringLiteral("began"))[0].id);
		QCOMPARE(u->touches, (QList<int>{-1, -2}));
		QVERIFY2(qAbs(u->scale - std::pow(1.1, 10)) < 0.01, qPrintable(QString::number(u->scale)));
		QVERIFY2(qAbs(u->rotation - 90) < 0.5, qPrintable(QString::number(u->rotation)));
		QVERIFY(qAbs(u->centroid.x() - 300) < 0.01 && qAbs(u->centroid.y() - 200) < 0.01);
		QCOMPARE(area->property("claimedTouches").toInt(), 2);
		send(Qt::EndNativeGesture, 0);
		QCOMPARE(of(QStringLiteral("ended")).size(), 1);
		QCOMPARE(of(QStringLiteral("ended"))[0].canceled, false);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
		QCOMPARE(log()->entries.size(), 0);
	}

	/* Ctrl+wheel: three notches zoom a pinch by 2^1.5; it ends 250 ms after the last; a plain wheel is not taken. */
	void ctrlWheelPinch()
	{
		QQuickItem *area = load("Subscription { gestures: Gesture.Pinch; touches: 2 }");
		QVERIFY(area);
		m_rec->autoDecide = QStringLiteral("accept");
		quint64 t = 200000;
		auto wheel = [&](Qt::KeyboardModifiers mods) {
			const QPointF at(200, 150);
			QWheelEvent ev(at, m_view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, mods,
				       Qt::NoScrollPhase, false);
			ev.setTimestamp(t += 30);
			QCoreApplication::sendEvent(m_view, &ev);
			return ev.isAccepted();
		};
		QVERIFY(!wheel(Qt::NoModifier));
		QCOMPARE(area->property("heldTouches").toInt(), 0);
		for (int i = 0; i < 3; i++)
			QVERIFY(wheel(Qt::ControlModifier));
		QCOMPARE(of(QStringLiteral("began")).size(), 1);
		const Seen *u = last(of(QStringLiteral("began"))[0].id);
		QVERIFY2(qAbs(u->scale - std::pow(2.0, 1.5)) < 0.01, qPrintable(QString::number(u->scale)));
		QCOMPARE(of(QStringLiteral("ended")).size(), 0);
		QTRY_COMPARE_WITH_TIMEOUT(of(QStringLiteral("ended")).size(), 1, 2000);
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
	}

	/* A touch no gesture wants (one touch, two-touch subscription) goes below after 60 ms. */
	void unwantedTouch()
	{
		QQuickItem *area = load("Subscription { gestures: Gesture.Drag; touches: 2 }");
		QVERIFY(area);
		QElapsedTimer t;
		t.start();
		QTest::touchEvent(m_view, m_dev).press(5, QPoint(300, 300));
		QCOMPARE(log()->entries.size(), 0);
		QCOMPARE(area->property("heldTouches").toInt(), 1);
		QTRY_COMPARE_WITH_TIMEOUT(log()->entries.size(), 1, 2000);
		QVERIFY(t.elapsed() >= 55);
		QTest::touchEvent(m_view, m_dev).move(5, QPoint(310, 300));
		QTest::touchEvent(m_view, m_dev).release(5, QPoint(310, 300));
		const QList<TouchLog::Entry> &e = log()->entries;
		QCOMPARE(e.size(), 3);
		QCOMPARE(e[0].pos, QPointF(280, 290));
		QCOMPARE(e[1].state, QEventPoint::State::Updated);
		QCOMPARE(e[2].state, QEventPoint::State::Released);
		QCOMPARE(e[2].pos, QPointF(290, 290));
		QCOMPARE(of(QStringLiteral("began")).size(), 0);
	}

	/*
	 * Construction finished with 1- and 2-touch drag subscriptions: a
	 * two-finger drag gives two one-touch gestures and one two-touch
	 * gesture, and no one-touch slice before the two-touch gesture began
	 * has construction finished; later slices have it.
	 */
	void constructionFinished()
	{
		QQuickItem *area = load("Subscription { objectName: 'one'; gestures: Gesture.Drag; touches: 1 }\n"
					"Subscription { objectName: 'two'; gestures: Gesture.Drag; touches: 2 }");
		QVERIFY(area);
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(100, 100));
		QTest::qWait(10);
		QTest::touchEvent(m_view, m_dev).stationary(0).press(1, QPoint(200, 100));
		for (int i = 1; i <= 10; i++) {
			QTest::qWait(15);
			QTest::touchEvent(m_view, m_dev).move(0, QPoint(100 + 10 * i, 100))
				.move(1, QPoint(200 + 10 * i, 100));
		}
		int n1 = 0, n2 = 0, begin2 = -1;
		for (int i = 0; i < m_rec->seen.size(); i++) {
			const Seen &s = m_rec->seen[i];
			if (s.sig == QLatin1String("began") && s.sub == QLatin1String("one"))
				n1++;
			if (s.sig == QLatin1String("began") && s.sub == QLatin1String("two")) {
				n2++;
				begin2 = i;
			}
		}
		QCOMPARE(n1, 2);
		QCOMPARE(n2, 1);
		for (int i = 0; i < begin2; i++)
			QCOMPARE(m_rec->seen[i].cf, false);
		/* 60 ms after the second touch every gesture has finished construction */
		const Seen *two = last(m_rec->seen[begin2].id);
		QVERIFY(two->cf);
		QCOMPARE(two->touches, (QList<int>{0, 1}));
		/* accepting the two-touch drag cancels the one-touch ones */
		QVERIFY(QMetaObject::invokeMethod(m_rec->gestures.value(two->id), "accept"));
		int canceled = 0;
		for (const Seen &s : of(QStringLiteral("ended")))
			canceled += s.sub == QLatin1String("one") && s.canceled;
		QCOMPARE(canceled, 2);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(200, 100)).release(1, QPoint(300, 100));
		QCOMPARE(last(two->id)->sig, QStringLiteral("ended"));
		QCOMPARE(area->property("claimedTouches").toInt(), 0);
	}

	/* The bug game: two hands pinch two bugs at once; the other pairs are rejected. */
	void exampleBugGame()
	{
		QQuickItem *root = loadExample(QStringLiteral("bug-game.qml"));
		QVERIFY(root);
		/* bug 0 at (160, 240), bug 2 at (640, 240); A B on bug 0, C D on bug 2 */
		const qreal x0[4] = {120, 200, 600, 680}, dx[4] = {30, -30, 30, -30};
		fourTouch(x0, dx, 240, 6);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(150, 240)).release(1, QPoint(170, 240))
			.release(2, QPoint(630, 240)).release(3, QPoint(650, 240));
		QCOMPARE(root->property("squashed").toInt(), 2);
		QList<bool> dead;
		for (QQuickItem *b : root->childItems())
			if (b->property("dead").isValid())
				dead.append(b->property("dead").toBool());
		QCOMPARE(dead, (QList<bool>{true, false, true, false}));
	}

	/* The photo viewer: a pinch on the photo scales it, a stroke beside it paints. */
	void examplePhotoViewer()
	{
		QQuickItem *root = loadExample(QStringLiteral("photo-viewer.qml"));
		QVERIFY(root);
		/* the photo covers (280, 60)-(520, 240); pinch it 100 -> 200 px apart */
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(350, 150)).press(1, QPoint(450, 150));
		for (int i = 1; i <= 10; i++) {
			QTest::qWait(12);
			QTest::touchEvent(m_view, m_dev).move(0, QPoint(350 - 5 * i, 150))
				.move(1, QPoint(450 + 5 * i, 150));
		}
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(300, 150)).release(1, QPoint(500, 150));
		QVERIFY2(qAbs(root->property("photoScale").toReal() - 2) < 0.01,
			 qPrintable(QString::number(root->property("photoScale").toReal())));
		QVERIFY(qAbs(root->property("photoRotation").toReal()) < 0.5);
		const QVector3D c = root->property("photoCenter").value<QVector3D>();
		QVERIFY2(qAbs(c.x() - 400) < 1 && qAbs(c.y() - 150) < 1, qPrintable(QString::number(c.x())));
		QCOMPARE(root->property("strokes").toInt(), 0);
		/* a stroke below the photo is rejected and reaches the painting area */
		QTest::touchEvent(m_view, m_dev).press(2, QPoint(100, 400));
		for (int i = 1; i <= 10; i++) {
			QTest::qWait(12);
			QTest::touchEvent(m_view, m_dev).move(2, QPoint(100 + 10 * i, 400 + 5 * i));
		}
		QTest::touchEvent(m_view, m_dev).release(2, QPoint(200, 450));
		QCOMPARE(root->property("strokes").toInt(), 1);
		QVERIFY(qAbs(root->property("photoScale").toReal() - 2) < 0.01);
	}

	/* A touch held still is decided by grail's timeouts, run by the area's timer. */
	void heldTouchTimeout()
	{
		QQuickItem *area = load("Subscription { objectName: 'hold'; gestures: Gesture.Hold; "
					"touches: 1; holdTimeout: 200 }");
		QVERIFY(area);
		QElapsedTimer t;
		t.start();
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(100, 100));
		QTest::qWait(100);
		QCOMPARE(of(QStringLiteral("began")).size(), 0);
		QTRY_COMPARE_WITH_TIMEOUT(of(QStringLiteral("began")).size(), 1, 3000);
		QVERIFY(t.elapsed() >= 195);
		QVERIFY(last(of(QStringLiteral("began"))[0].id)->recognized & 0x20);
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(100, 100));
	}

	/* a drag that never moves is rejected at its timeout, with no further input */
	void unmovedDragTimeout()
	{
		/* a drag that never moves is rejected at its 300 ms timeout: the item below gets it */
		QQuickItem *area = load("Subscription { gestures: Gesture.Drag; touches: 1; dragTimeout: 300 }");
		QVERIFY(area);
		QElapsedTimer t;
		t.start();
		QTest::touchEvent(m_view, m_dev).press(0, QPoint(100, 100));
		QTest::qWait(150);
		QCOMPARE(log()->entries.size(), 0);
		QTRY_COMPARE_WITH_TIMEOUT(log()->entries.size(), 1, 3000);
		QVERIFY(t.elapsed() >= 295);
		QCOMPARE(log()->entries[0].state, QEventPoint::State::Pressed);
		QCOMPARE(log()->entries[0].pos, QPointF(80, 90));
		QTest::touchEvent(m_view, m_dev).release(0, QPoint(100, 100));
		QCOMPARE(log()->entries.size(), 2);
	}
};

QTEST_MAIN(TestGestureArea)
#include "test-gesture-area.moc"

/*
 * Runs one of the UTouch QML examples in a window:
 *   utouch-qml-example FILE.qml
 * The build tree's UTouch module is on the import path (an installed
 * module is found through Qt's own path or QML_IMPORT_PATH).
 */
#include <QGuiApplication>
#include <QQmlEngine>
#include <QQuickView>
#include <QUrl>
#include <cstdio>

int
main(int argc, char **argv)
{
	QGuiApplication app(argc, argv);
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s FILE.qml\n", argv[0]);
		return 2;
	}
	QQuickView view;
	view.engine()->addImportPath(QStringLiteral(UTOUCH_QML_IMPORT_DIR));
	view.setResizeMode(QQuickView::SizeRootObjectToView);
	view.setSource(QUrl::fromLocalFile(QString::fromLocal8Bit(argv[1])));
	if (view.status() != QQuickView::Ready) {
		for (const QQmlError &e : view.errors())
			std::fprintf(stderr, "%s\n", qPrintable(e.toString()));
		return 1;
	}
	view.show();
	return app.exec();
}

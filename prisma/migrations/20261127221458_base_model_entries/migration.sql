-- CreateTable
CREATE TABLE "BaseModelEntry" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "hfNames" TEXT[],
    "file" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "trainable" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID NOT NULL,

    CONSTRAINT "BaseModelEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BaseModelEntry_name_key" ON "BaseModelEntry"("name");
